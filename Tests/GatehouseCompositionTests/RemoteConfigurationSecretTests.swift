import Foundation
import GatehouseComposition
import GatehouseCore
import Testing

/// A remote gatekeeper's URL keeps no password, and what a configuration says about its URL
/// (problems, `explain`) shows no query: both may carry secrets.
@Suite("The remote gatekeeper's secrets in a configuration")
struct RemoteConfigurationSecretTests {
    @Test func aURLWithAPasswordIsAProblemAtItsPathThatNeverShowsThePassword() {
        let found = issues(
            service(
                gatekeepers:
                    #"[{ "type": "remote", "protocol": "opa", "url": "http://admin:S3cr3t@127.0.0.1:8181/v1/data/x" }]"#
            ))
        #expect(found.count == 1, "\(found)")
        for issue in found {
            #expect(issue.hasPrefix("services.s.gatekeepers[0].url: "), "\(issue)")
            #expect(!issue.contains("S3cr3t"), "\(issue)")
            #expect(issue.contains("bearerTokenEnvironment"), "\(issue)")
        }
    }

    @Test func aURLThatCannotBeUsedIsShownWithoutItsPasswordOrQuery() {
        let found = issues(
            service(
                gatekeepers:
                    #"[{ "type": "remote", "protocol": "opa", "url": "ftp://admin:S3cr3t@pdp.example/x?token=T0k3n" }]"#
            ))
        #expect(found.count == 1, "\(found)")
        for issue in found {
            #expect(!issue.contains("S3cr3t") && !issue.contains("T0k3n"), "\(issue)")
            #expect(issue.contains(#"found "ftp://…@pdp.example/x?…""#), "\(issue)")
        }
    }

    @Test func explainShowsTheQueryAsAnEllipsis() throws {
        let services = try Assembler().assemble(
            json: Data(
                service(
                    gatekeepers: #"""
                        [{ "type": "remote", "protocol": "opa",
                           "url": "http://127.0.0.1:8181/v1/data/gatehouse?token=T0k3n" }]
                        """#
                ).utf8), baseDirectory: FileManager.default.temporaryDirectory)
        let lines = try services.service(named: "s").description
        #expect(!lines.joined().contains("T0k3n"), "\(lines)")
        #expect(
            lines.contains(
                "  gatekeeper 1: remote: asks the OPA data API at http://127.0.0.1:8181/v1/data/gatehouse?…, timeout 1s (default); no answer fails the gate, a grant is never cached"
            ), "\(lines)")
    }

    @Test func aBearerTokenVariableThatIsNotSetIsAProblemAtItsPath() {
        let found = issues(
            service(
                gatekeepers: #"""
                    [{ "type": "remote", "protocol": "opa", "url": "http://127.0.0.1:8181/v1/data/gatehouse",
                       "bearerTokenEnvironment": "GATEHOUSE_TEST_TOKEN_THAT_IS_NEVER_SET" }]
                    """#
            ))
        #expect(
            found == [
                #"services.s.gatekeepers[0].bearerTokenEnvironment: the environment variable "GATEHOUSE_TEST_TOKEN_THAT_IS_NEVER_SET" is not set or empty; set it to the token the decision service expects"#
            ])
    }
}
