import Foundation
import GatehouseComposition
import GatehouseCore
import Testing

/// `allOf`, `anyOf` and `not` take `"gatekeepers"` / `"gatekeeper"`; the older `"policies"` /
/// `"policy"` still read; a component giving both is refused, naming the older key.
@Suite("Combinator keys")
struct CombinatorKeyTests {
    @Test(arguments: ["allOf", "anyOf"])
    func aCombinatorReadsItsGatekeepers(_ type: String) throws {
        let json = service(
            gatekeepers: #"[{ "type": "\#(type)", "gatekeepers": [{ "type": "alwaysAllow" }] }]"#)
        #expect(issues(json).isEmpty)
    }

    @Test func notReadsItsGatekeeper() {
        let json = service(gatekeepers: #"[{ "type": "not", "gatekeeper": { "type": "alwaysDeny" } }]"#)
        #expect(issues(json).isEmpty)
    }

    @Test(arguments: ["allOf", "anyOf"])
    func theOldPoliciesKeyStillReads(_ type: String) {
        let json = service(
            gatekeepers: #"[{ "type": "\#(type)", "policies": [{ "type": "alwaysAllow" }] }]"#)
        #expect(issues(json).isEmpty)
    }

    @Test func theOldPolicyKeyOfNotStillReads() {
        let json = service(gatekeepers: #"[{ "type": "not", "policy": { "type": "alwaysDeny" } }]"#)
        #expect(issues(json).isEmpty)
    }

    @Test func theOldAndNewKeysDecideAlike() async throws {
        func decision(_ gatekeepers: String) async throws -> AccessVerdict {
            let services = try Assembler().assemble(
                json: Data(service(gatekeepers: gatekeepers).utf8),
                baseDirectory: FileManager.default.temporaryDirectory)
            let service = try services.service(named: "s")
            return try await service.decide(AccessRequest(subject: "alice", action: "read", resource: "a"))
        }
        let new = try await decision(
            #"[{ "type": "anyOf", "gatekeepers": [{ "type": "not", "gatekeeper": { "type": "alwaysAllow" } }] }]"#
        )
        let old = try await decision(
            #"[{ "type": "anyOf", "policies": [{ "type": "not", "policy": { "type": "alwaysAllow" } }] }]"#)
        #expect(new.outcome == old.outcome)
        #expect(new.outcome == .denied)
    }

    @Test func bothCombinatorKeysAreAnError() {
        let json = service(
            gatekeepers:
                #"[{ "type": "allOf", "gatekeepers": [{ "type": "alwaysAllow" }], "policies": [{ "type": "alwaysAllow" }] }]"#
        )
        #expect(
            issues(json) == [
                #"services.s.gatekeepers[0].policies: give "gatekeepers" or its older name "policies", not both"#
            ])
    }

    @Test func bothKeysOfNotAreAnError() {
        let json = service(
            gatekeepers:
                #"[{ "type": "not", "gatekeeper": { "type": "alwaysDeny" }, "policy": { "type": "alwaysDeny" } }]"#
        )
        #expect(
            issues(json) == [
                #"services.s.gatekeepers[0].policy: give "gatekeeper" or its older name "policy", not both"#
            ])
    }

    @Test func aNestedProblemIsPlacedUnderTheKeyAsWritten() {
        let new = service(gatekeepers: #"[{ "type": "allOf", "gatekeepers": [{ "type": "nope" }] }]"#)
        let old = service(gatekeepers: #"[{ "type": "allOf", "policies": [{ "type": "nope" }] }]"#)
        #expect(
            issues(new).first?.hasPrefix("services.s.gatekeepers[0].gatekeepers[0].type: unknown") == true)
        #expect(issues(old).first?.hasPrefix("services.s.gatekeepers[0].policies[0].type: unknown") == true)
    }
}
