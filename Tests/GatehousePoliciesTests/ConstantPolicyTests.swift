import GatehouseCore
import GatehousePolicies
import Testing

@Suite("AlwaysAllow and AlwaysDeny")
struct ConstantPolicyTests {
    let requests = [
        AccessRequest(resource: "a"),
        AccessRequest(
            subject: "alice", action: "write", resource: "avatars/alice.png", attributes: ["x": "y"]),
    ]

    @Test func alwaysAllowAllowsEveryRequest() async throws {
        for request in requests {
            #expect(try await AlwaysAllow().evaluate(request) == .allow)
        }
        #expect(AlwaysAllow().name == "alwaysAllow")
    }

    @Test func alwaysDenyDeniesEveryRequestWithItsReason() async throws {
        let policy = AlwaysDeny(reason: "maintenance until 14:00")
        for request in requests {
            #expect(try await policy.evaluate(request) == .deny(reason: "maintenance until 14:00"))
        }
        #expect(policy.name == "alwaysDeny")
    }
}
