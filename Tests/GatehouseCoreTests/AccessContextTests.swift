import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("AccessContext.with")
struct AccessContextTests {
    @Test func nestedCallsMergeAttributesAndTheInnerOneWins() async {
        let context = await AccessContext.with(
            subject: "alice", attributes: ["tenant": "acme", "device": "unmanaged"]
        ) {
            await AccessContext.with(attributes: ["device": "managed"]) { AccessContext.current }
        }
        #expect(
            context == AccessContext(subject: "alice", attributes: ["tenant": "acme", "device": "managed"]))
    }

    @Test func aGivenSubjectReplacesTheEnclosingOneAndLeavingItOutKeepsIt() async {
        let (kept, replaced) = await AccessContext.with(subject: "alice") {
            let kept = await AccessContext.with(attributes: ["a": "1"]) { AccessContext.current.subject }
            let replaced = await AccessContext.with(subject: "bob") { AccessContext.current.subject }
            return (kept, replaced)
        }
        #expect(kept == "alice")
        #expect(replaced == "bob")
        #expect(AccessContext.current == AccessContext())
    }

    @Test func theContextReachesTheGateAndEndsWithTheCall() async throws {
        let policy = SwitchPolicy("gate", .allow)
        let docs = SpyLoader().guarded(by: policy)
        _ = try await AccessContext.with(subject: "alice", attributes: ["tenant": "acme"]) {
            try await docs.load("tenants/acme/plan.txt")
        }
        _ = try await docs.load("public/a")
        #expect(policy.seen.map(\.subject) == ["alice", nil])
        #expect(policy.seen.map(\.attributes) == [["tenant": "acme"], [:]])
    }

    @Test func anErrorThrownInsideComesOutUnchanged() async {
        struct Stop: Error, Equatable {}
        await #expect(throws: Stop()) {
            try await AccessContext.with(subject: "alice") { throw Stop() }
        }
    }

    @Test func withoutSubjectReturnsToAnonymousKeepingTheAttributes() async {
        let inner = await AccessContext.with(subject: "alice", attributes: ["device": "managed"]) {
            await AccessContext.withoutSubject(attributes: ["tenant": "acme"]) { AccessContext.current }
        }
        #expect(inner.subject == nil)
        #expect(inner.attributes == ["device": "managed", "tenant": "acme"])
        let after = await AccessContext.with(subject: "alice") {
            _ = await AccessContext.withoutSubject { AccessContext.current }
            return AccessContext.current
        }
        #expect(after.subject == "alice")
    }
}
