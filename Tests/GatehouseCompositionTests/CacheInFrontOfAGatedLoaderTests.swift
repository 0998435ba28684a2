import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// A cache in front of a gate keeps serving after access is revoked. The guard holds through the
/// package's own type erasure (`AnyLoader` keeps a proxy's `Gate`) at compile time, and through a
/// plugin loader that is itself a gate at assembly.
@Suite("A cache in front of a gate, through AnyLoader or a gated plugin loader")
struct CacheInFrontOfAGatedLoaderTests {
    @Test func anErasedGateInACacheFailsToCompileWithTheGuardsMessage() async throws {
        let snippet = """
            import Foundation
            import GatehouseComposition
            import GatehouseCore
            import GatehouseLoaders
            let proxy = AccessProxy(MemoryLoader<String, Data>(), gatekeepers: [])
            let cache = CachingLoader(AnyLoader(proxy), countLimit: 10)
            let bytes = CachingLoader(AnyLoader(proxy), countLimit: 10, byteLimit: 1000)
            func cached(_ service: ConfiguredService) { _ = CachingLoader(AnyLoader(service), countLimit: 10) }
            let safe = AccessProxy(CachingLoader(AnyLoader(MemoryLoader<String, Data>()), countLimit: 10), gatekeepers: [])
            """
        let result = try await typecheck(snippet)
        #expect(result.status != 0)
        let message =
            "is unavailable: put the cache behind the gate, AccessProxy(CachingLoader(loader, ...), ...)"
        #expect(result.errorLines.count == 3, "\(result.errors)")
        #expect(
            result.errorLines.allSatisfy {
                $0.contains("error: 'init(_:countLimit:") && $0.contains(message)
            },
            "\(result.errors)")
    }

    /// Registers `gatedMemory`: a loader that is an `AccessProxy` over a memory store.
    static func registry() throws -> PluginRegistry {
        var registry = PluginRegistry()
        try registry.registerLoader("gatedMemory", settings: NoSettings.self) { _, _ in
            AccessProxy(MemoryLoader(["docs/a": Data("A".utf8)]), gatekeepers: [AlwaysAllow()])
        }
        return registry
    }

    struct NoSettings: Decodable, Sendable {}

    static func configuration(cache: Bool) -> String {
        """
        { "services": { "docs": {
            "loader": { "type": "gatedMemory" }\(cache ? #", "cache": { "countLimit": 10 }"# : ""),
            "gatekeepers": [{ "type": "alwaysAllow" }] } } }
        """
    }

    @Test func aCacheBeforeAPluginLoaderThatIsAGateIsAConfigurationIssueThatSaysWhy() throws {
        let found = issues(Self.configuration(cache: true), registry: try Self.registry())
        #expect(
            found == [
                #"services.docs.cache: the loader "gatedMemory" is itself a gate, so this cache would stand in "#
                    + "front of its gate and keep serving a resource after access to it is revoked; remove the "
                    + "cache, or put it behind that gate, inside the loader"
            ])
    }

    @Test func aPluginLoaderThatIsAGateStandsBehindTheServicesGateWithoutACache() async throws {
        let services = try Assembler(registry: try Self.registry()).assemble(
            json: Data(Self.configuration(cache: false).utf8),
            baseDirectory: FileManager.default.temporaryDirectory)
        #expect(try await services.service(named: "docs").load("docs/a") == Data("A".utf8))
    }
}
