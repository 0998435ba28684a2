import Foundation
import GatehouseComposition
import GatehouseCore
import Testing

@Suite("The remote gatekeeper in a configuration")
struct RemoteConfigurationTests {
    static let opa = #""type": "remote", "protocol": "opa", "url": "http://127.0.0.1:8181/v1/data/gatehouse""#

    @Test(arguments: [
        (
            #"[{ "type": "remote", "protocol": "opaa", "url": "http://127.0.0.1:8181/v1/data/gatehouse" }]"#,
            #"services.s.gatekeepers[0].protocol: unknown value "opaa"; expected "opa" or "authzen"; did you mean "opa"?"#
        ),
        (
            #"[{ "type": "remote", "protocol": "authzen", "url": "ftp://pdp.example/access/v1/evaluation" }]"#,
            #"services.s.gatekeepers[0].url: expected an http:// or https:// URL with a host, such as "http://127.0.0.1:8181/v1/data/gatehouse", found "ftp://pdp.example/access/v1/evaluation""#
        ),
        (
            "[{ \(opa), \"timeout\": \"250\" }]",
            #"services.s.gatekeepers[0].timeout: expected a duration such as "250ms" or "2s" (a whole number, then ms or s), found "250""#
        ),
        (
            "[{ \(opa), \"timeout\": \"0.5s\" }]",
            #"services.s.gatekeepers[0].timeout: expected a duration such as "250ms" or "2s" (a whole number, then ms or s), found "0.5s""#
        ),
        (
            "[{ \(opa), \"timeout\": \"0ms\" }]",
            #"services.s.gatekeepers[0].timeout: must be positive, found "0ms""#
        ),
        (
            "[{ \(opa), \"timeout\": \"601s\" }]",
            #"services.s.gatekeepers[0].timeout: must be at most 600s (ten minutes), found "601s""#
        ),
        (
            "[{ \(opa), \"maxResponseBytes\": 0 }]",
            #"services.s.gatekeepers[0].maxResponseBytes: expected a positive number of bytes, found 0"#
        ),
        (
            "[{ \(opa), \"timout\": \"250ms\" }]",
            #"services.s.gatekeepers[0].timout: unknown key (did you mean "timeout"?)"#
        ),
        (
            #"[{ "type": "remote", "protocol": "opa" }]"#,
            #"services.s.gatekeepers[0].url: missing"#
        ),
    ])
    func eachRemoteSettingErrorNamesItsPlace(gatekeepers: String, expected: String) {
        #expect(issues(service(gatekeepers: gatekeepers)) == [expected])
    }

    @Test func explainDescribesTheServiceAskedTheTimeoutAndThatNoAnswerFails() throws {
        let services = try Assembler().assemble(
            json: Data(
                service(
                    gatekeepers: #"""
                        [{ "type": "remote", "name": "policy-agent", "protocol": "opa",
                           "url": "http://127.0.0.1:8181/v1/data/gatehouse", "timeout": "250ms" },
                         { "type": "remote", "protocol": "authzen", "url": "https://pdp.example/access/v1/evaluation",
                           "maxResponseBytes": 4096 }]
                        """#
                ).utf8), baseDirectory: FileManager.default.temporaryDirectory)
        let lines = try services.service(named: "s").description
        #expect(
            lines.contains(
                "  gatekeeper 1: policy-agent = remote: asks the OPA data API at http://127.0.0.1:8181/v1/data/gatehouse, timeout 250ms; no answer fails the gate, a grant is never cached"
            ), "\(lines)")
        #expect(
            lines.contains(
                "  gatekeeper 2: remote: asks the AuthZEN evaluation at https://pdp.example/access/v1/evaluation, timeout 1s (default), answers up to 4096 bytes; no answer fails the gate, a grant is never cached"
            ), "\(lines)")
    }

    @Test func anUnreachableServiceDeniesAsAGateFailureUnderTheGatesName() async throws {
        // Port 9 on the loopback address: nothing listens there, so the connection is refused.
        let services = try Assembler().assemble(
            json: Data(
                service(
                    gatekeepers: #"""
                        [{ "type": "remote", "name": "policy-agent", "protocol": "opa",
                           "url": "http://127.0.0.1:9/v1/data/gatehouse", "timeout": "2s" }]
                        """#
                ).utf8), baseDirectory: FileManager.default.temporaryDirectory)
        let service = try services.service(named: "s")
        do {
            _ = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                try await service.load("a")
            }
            Issue.record("an unreachable decision service allowed the call")
        } catch let denied as AccessDenied {
            #expect(denied.isFailure)
            #expect(denied.gatekeeper == "policy-agent")
            #expect(denied.reason.contains("http://127.0.0.1:9/v1/data/gatehouse"))
        }
    }
}
