import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("Actions are values")
struct AccessActionTests {
    @Test func aStringLiteralAndANamedActionAreTheSameAction() {
        let typed = AccessRequest(subject: "alice", action: .write, resource: "docs/a")
        let literal = AccessRequest(subject: "alice", action: "write", resource: "docs/a")
        #expect(typed == literal)
        #expect(typed.action == "write")
        #expect(literal.action == .write)
    }

    @Test func anActionFromAStringVariableComesThroughItsRawValue() {
        let fromCommandLine = "share"
        let action = AccessAction(rawValue: fromCommandLine)
        #expect(AccessRequest(action: action, resource: "docs/a").action.rawValue == "share")
        #expect(action.description == "share")
        #expect(
            [AccessAction.read, .write, .delete, .list].map(\.rawValue) == [
                "read", "write", "delete", "list",
            ])
    }

    @Test func anActionIsItsTextInJSON() throws {
        let request = AccessRequest(subject: "alice", action: .delete, resource: "docs/a")
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        #expect(json.contains(#""action":"delete""#))
        #expect(try JSONDecoder().decode(AccessRequest.self, from: Data(json.utf8)) == request)
        let withoutAction = try JSONDecoder().decode(
            AccessRequest.self, from: Data(#"{"resource": "a"}"#.utf8))
        #expect(withoutAction.action == .read)
    }

    @Test func aProxyAsksTheActionItIsGivenAsAValueOrALiteral() async throws {
        let policy = SwitchPolicy("gate", .allow)
        _ = try await SpyLoader().guarded(by: policy, action: .list).load("a")
        _ = try await SpyLoader().guarded(by: policy, action: "preview").load("a")
        #expect(policy.seen.map(\.action) == [.list, "preview"])
    }
}
