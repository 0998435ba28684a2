import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A configured service's proxy holds its loader behind `AnyLoader` (and a cache): the plan of a
/// listing must still reach a loader that filters, as it does when the proxy holds that loader.
@Suite("A configured service pushes its plan down to a loader that filters")
struct ConfiguredPushdownTests {
    /// A loader that lists its names, narrowed by a plan when given one, and records the plans.
    struct FilteringLoader: ResourceLoading, FilteredListing {
        typealias Gate = Never
        let names: [String]
        let plans = LockedState<[AccessPlan]>([])

        func load(_ key: String) async throws -> Data { Data(key.utf8) }
        func keys(under prefix: String) async throws -> [String] { names.filter { $0.hasPrefix(prefix) } }
        func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [String] {
            plans.withLock { $0.append(plan) }
            return try await keys(under: prefix).filter { plan.permits($0) }
        }
    }

    /// A loader that lists but cannot filter.
    struct PlainLoader: ResourceLoading, ResourceListing {
        typealias Gate = Never
        let names: [String]
        func load(_ key: String) async throws -> Data { Data(key.utf8) }
        func keys(under prefix: String) async throws -> [String] { names.filter { $0.hasPrefix(prefix) } }
    }

    struct NoSettings: Decodable, Sendable {}

    static let names = ["docs/a", "docs/b", "docs/secret", "other/c"]

    static func service<Loader: ResourceLoading<String, Data>>(cache: Bool, loader: Loader) throws
        -> ConfiguredService
    {
        var registry = PluginRegistry()
        try registry.registerLoader("mine", settings: NoSettings.self) { _, _ in loader }
        let cacheSetting = cache ? #", "cache": { "countLimit": 10 }"# : ""
        let json = """
            { "services": { "s": { "loader": { "type": "mine" }\(cacheSetting),
              "gatekeepers": [ { "type": "allowList", "name": "team", "resources": ["docs", "docs/a", "docs/b"], "subjects": ["alice"] } ] } } }
            """
        return try Assembler(registry: registry).assemble(
            json: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/")
        )
        .service(named: nil)
    }

    @Test(arguments: [false, true])
    func theLoaderReceivesThePlanAndTheListingIsExact(cache: Bool) async throws {
        let loader = FilteringLoader(names: Self.names)
        let service = try Self.service(cache: cache, loader: loader)
        let listed = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await service.keys(under: "docs")
        }
        #expect(listed == ["docs/a", "docs/b"])
        let plans = loader.plans.withLock { $0 }
        #expect(plans.count == 1)
        #expect(plans.first?.permits("docs/secret") == false)
        #expect(plans.first?.permits("docs/a") == true)
    }

    @Test func aLoaderThatCannotFilterStillListsEveryPermittedName() async throws {
        let service = try Self.service(cache: true, loader: PlainLoader(names: Self.names))
        let listed = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await service.keys(under: "docs")
        }
        #expect(listed == ["docs/a", "docs/b"])
    }
}
