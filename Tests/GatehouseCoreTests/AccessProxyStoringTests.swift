import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// `store` and `remove` through the proxy: each asks its own action, and a denied call never
/// reaches the base.
@Suite("AccessProxy: store and remove")
struct AccessProxyStoringTests {
    /// A gate that allows only `allowedAction`, recording every request it is asked.
    private func gate(_ path: GatePath, allowing allowedAction: AccessAction) -> any AccessPolicy {
        path.gate("actions") { request in
            request.action == allowedAction ? .allow : .deny(reason: "\(request.action) is not allowed")
        }
    }

    @Test(arguments: GatePath.allCases)
    func anAllowedStoreAsksWriteAndForwardsTheExactKeyAndResource(_ path: GatePath) async throws {
        let base = SpyStore()
        let observer = RecordingObserver()
        let proxy = AccessProxy(base, gatekeepers: [gate(path, allowing: "write")], observer: observer)
        try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await proxy.store("draft", for: "docs/plan.txt")
        }
        #expect(base.calls == [.store("docs/plan.txt", "draft")])
        #expect(observer.records.map(\.request.action) == ["write"])
        #expect(observer.records.map(\.request.subject) == ["alice"])
        #expect(observer.records.map(\.verdict.decision) == [AccessDecision.allow])
    }

    @Test(arguments: GatePath.allCases)
    func aDeniedStoreNeverReachesTheBase(_ path: GatePath) async throws {
        let base = SpyStore(["docs/plan.txt": "old"])
        let observer = RecordingObserver()
        let proxy = AccessProxy(base, gatekeepers: [gate(path, allowing: "read")], observer: observer)
        let denied = await #expect(throws: AccessDenied.self) {
            try await proxy.store("new", for: "docs/plan.txt")
        }
        #expect(denied?.request.action == "write")
        #expect(denied?.gatekeeper == "actions")
        #expect(base.calls.isEmpty)
        #expect(base.stored == ["docs/plan.txt": "old"])
        #expect(
            observer.records.map(\.verdict.decision) == [AccessDecision.deny(reason: "write is not allowed")])
    }

    @Test(arguments: GatePath.allCases)
    func anAllowedRemoveAsksDeleteAndForwardsTheExactKey(_ path: GatePath) async throws {
        let base = SpyStore(["docs/plan.txt": "old"])
        let observer = RecordingObserver()
        let proxy = AccessProxy(base, gatekeepers: [gate(path, allowing: "delete")], observer: observer)
        try await proxy.remove("docs/plan.txt")
        #expect(base.calls == [.remove("docs/plan.txt")])
        #expect(observer.records.map(\.request.action) == ["delete"])
    }

    @Test(arguments: GatePath.allCases)
    func aDeniedRemoveNeverReachesTheBase(_ path: GatePath) async throws {
        let base = SpyStore(["docs/plan.txt": "old"])
        let proxy = AccessProxy(base, gatekeepers: [gate(path, allowing: "write")])
        let denied = await #expect(throws: AccessDenied.self) { try await proxy.remove("docs/plan.txt") }
        #expect(denied?.request.action == "delete")
        #expect(base.calls.isEmpty)
        #expect(base.stored == ["docs/plan.txt": "old"])
    }

    @Test(arguments: GatePath.allCases)
    func aGateThatFailsDeniesAStoreWithoutReachingTheBase(_ path: GatePath) async throws {
        let base = SpyStore()
        let proxy = AccessProxy(base, gatekeepers: [path.gate("broken") { _ in throw GateFailure() }])
        let denied = await #expect(throws: AccessDenied.self) { try await proxy.store("x", for: "a") }
        #expect(denied?.isFailure == true)
        #expect(base.calls.isEmpty)
    }

    @Test func aKeyThatBreaksTheIdentityRuleIsNeitherStoredNorRemoved() async throws {
        let base = SpyStore()
        let proxy = AccessProxy(base, gatekeepers: [SwitchPolicy("allowAll")])
        for key in ["../secret", "/etc/passwd", "docs/", "cafe\u{301}"] {
            let stored = await #expect(throws: AccessDenied.self) { try await proxy.store("x", for: key) }
            #expect(stored?.gatekeeper == "(identity)")
            let removed = await #expect(throws: AccessDenied.self) { try await proxy.remove(key) }
            #expect(removed?.gatekeeper == "(identity)")
        }
        #expect(base.calls.isEmpty)
    }

    @Test func theLoadActionDoesNotChangeTheWriteAndDeleteActions() async throws {
        let base = SpyStore(["a": "1"])
        let observer = RecordingObserver()
        let proxy = AccessProxy(
            base, gatekeepers: [SwitchPolicy("allowAll")], action: "view", observer: observer)
        _ = try await proxy.load("a")
        try await proxy.store("2", for: "a")
        try await proxy.remove("a")
        #expect(observer.records.map(\.request.action) == ["view", "write", "delete"])
    }

    @Test func theBasesErrorPassesThroughAnAllowedRemoveUnchanged() async throws {
        struct Refused: Error, Equatable {}
        final class FailingStore: ResourceStoring, Sendable {
            func load(_ key: String) async throws -> String { "" }
            func store(_ resource: String, for key: String) async throws { throw Refused() }
            func remove(_ key: String) async throws { throw Refused() }
        }
        let proxy = AccessProxy(FailingStore(), gatekeepers: [SwitchPolicy("allowAll")])
        await #expect(throws: Refused()) { try await proxy.remove("a") }
        await #expect(throws: Refused()) { try await proxy.store("x", for: "a") }
    }
}
