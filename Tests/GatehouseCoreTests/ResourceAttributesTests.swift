import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("Resource attributes")
struct ResourceAttributesTests {
    /// Owners by key, as a document store's metadata would give them.
    static let owners: @Sendable (String) async throws -> [String: String] = { key in
        guard let owner = ["docs/a": "alice", "docs/b": "bob"][key] else { throw NoOwner() }
        return ["owner": owner]
    }

    struct NoOwner: Error, CustomStringConvertible {
        var description: String { "the document has no owner on record" }
    }

    /// Allows a subject to act on what it owns.
    static let ownerOnly = ClosurePolicy("owner") { request in
        request.attributes["owner"] == request.subject ? .allow : .deny(reason: "not the owner")
    }

    @Test func theResourcesAttributesReachTheGatekeepers() async throws {
        let store = SpyStore(["docs/a": "A", "docs/b": "B"])
        let docs = store.guarded(by: Self.ownerOnly, attributes: Self.owners)
        let loaded = try await AccessContext.with(subject: "alice") { try await docs.load("docs/a") }
        #expect(loaded == "A")
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "alice") { try await docs.load("docs/b") }
        }
        #expect(store.calls == [.load("docs/a")])
    }

    @Test func aResourcesAttributeWinsOverTheCallersClaim() async throws {
        let store = SpyStore(["docs/b": "B"])
        let docs = AccessProxy(store, gatekeepers: [Self.ownerOnly], attributes: Self.owners)
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "alice", attributes: ["owner": "alice"]) {
                try await docs.load("docs/b")
            }
        }
        #expect(store.calls.isEmpty)
    }

    @Test func aThrowingAttributeSourceFailsTheGateAndSaysWhy() async throws {
        let store = SpyStore(["docs/c": "C"])
        let policy = SwitchPolicy("gate", .allow)
        let observer = RecordingObserver()
        let docs = store.guarded(by: policy, observer: observer, attributes: Self.owners)
        let error = await #expect(throws: AccessDenied.self) { try await docs.load("docs/c") }
        #expect(error?.kind == .failed)
        #expect(error?.gatekeeper == "(attributes)")
        #expect(error?.reason.contains("the document has no owner on record") == true)
        #expect(policy.evaluations == 0)
        #expect(store.calls.isEmpty)
        #expect(observer.records.map(\.verdict.outcome) == [.failed])
    }

    @Test func storeRemoveAndEachListedNameCarryTheResourcesAttributes() async throws {
        let store = SpyStore(["docs/a": "A", "docs/b": "B"])
        let docs = store.guarded(
            by: ClosurePolicy("owner") { request in
                request.action == .list || request.attributes["owner"] == request.subject
                    ? .allow : .deny(reason: "not the owner")
            },
            attributes: Self.owners)
        try await AccessContext.with(subject: "alice") {
            #expect(try await docs.keys(under: "docs") == ["docs/a"])
            try await docs.store("A2", for: "docs/a")
            try await docs.remove("docs/a")
            await #expect(throws: AccessDenied.self) { try await docs.store("B2", for: "docs/b") }
            await #expect(throws: AccessDenied.self) { try await docs.remove("docs/b") }
        }
        #expect(store.calls == [.keys("docs"), .store("docs/a", "A2"), .remove("docs/a")])
    }
}
