import Foundation
import GatehouseCore
import Testing

/// "Why?" for a proxied call: `decide(_:action:)` and `decideListing(under:)` answer what `load`,
/// `store`, `remove` and `keys(under:)` would meet now, with the resource's attributes merged
/// and near misses included, and never reach the base.
@Suite("Why for a proxied call, through every door")
struct ProxyDecideTests {
    /// Owners as the store's metadata gives them.
    static let owners = ResourceAttributes<String>(["owner"]) { key in
        ["docs/plan.md": ["owner": "alice"], "docs/budget.md": ["owner": "bob"]][key] ?? [:]
    }

    /// Owners may read, write and delete their documents; anyone may list `docs`; a denial says
    /// which rule came closest.
    struct OwnerPolicy: AccessPolicy {
        let name = "owners"
        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            if request.action == .list {
                return request.resource == "docs" ? .allow : .deny(reason: "not docs")
            }
            return request.attributes["owner"] == request.subject ? .allow : .deny(reason: "not the owner")
        }
        func nearMisses(_ request: AccessRequest) async throws -> [String] {
            ["owner is \(request.attributes["owner"] ?? "nobody"), not \(request.subject ?? "anonymous")"]
        }
    }

    static func documents() -> (AccessProxy<SpyStore>, SpyStore) {
        let store = SpyStore(["docs/plan.md": "P", "docs/budget.md": "B"])
        return (AccessProxy(store, gatekeepers: [OwnerPolicy()], attributes: owners), store)
    }

    @Test(arguments: [AccessAction.read, .write, .delete])
    func decideAnswersAsTheCallWouldForEachActionWithoutReachingTheBase(_ action: AccessAction) async throws {
        let (documents, store) = Self.documents()
        try await AccessContext.with(subject: "alice", attributes: ["owner": "alice"]) {
            let own = try await documents.decide("docs/plan.md", action: action)
            let other = try await documents.decide("docs/budget.md", action: action)
            #expect(own.isAllowed)
            // The caller's claim to own the budget is dropped: the store's owner, bob, decides.
            #expect(!other.isAllowed)
            #expect(other.gatekeeper == "owners")
            #expect(other.reason == "not the owner")
            #expect(other.nearMisses == ["owner is bob, not alice"])
            #expect(store.calls.isEmpty)
            // The call meets the same answer.
            let call: (String) async throws -> Void =
                switch action {
                case .write: { try await documents.store("new", for: $0) }
                case .delete: { try await documents.remove($0) }
                default: { _ = try await documents.load($0) }
                }
            try await call("docs/plan.md")
            await #expect(throws: AccessDenied.self) { try await call("docs/budget.md") }
        }
    }

    @Test func decideWithoutAnActionAsksAsLoadDoes() async throws {
        let (documents, _) = Self.documents()
        let verdict = try await AccessContext.with(subject: "bob") {
            try await documents.decide("docs/budget.md")
        }
        #expect(verdict.isAllowed)
    }

    @Test func decideListingAnswersAsTheFolderCheckOfKeysUnderWould() async throws {
        let (documents, store) = Self.documents()
        try await AccessContext.with(subject: "alice") {
            let docs = try await documents.decideListing(under: "docs")
            let secrets = try await documents.decideListing(under: "secrets")
            #expect(docs.isAllowed)
            #expect(!secrets.isAllowed)
            #expect(secrets.reason == "not docs")
            #expect(secrets.nearMisses == ["owner is nobody, not alice"])
            #expect(store.calls.isEmpty)
            #expect(try await documents.keys(under: "docs") == ["docs/plan.md"])
            await #expect(throws: AccessDenied.self) { try await documents.keys(under: "secrets") }
        }
    }
}
