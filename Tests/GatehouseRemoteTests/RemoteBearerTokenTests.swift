import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// Credentials go in a header, never in the URL: a bearer token is sent as
/// `Authorization: Bearer …` and never shown.
@Suite("RemotePolicy with a bearer token")
struct RemoteBearerTokenTests {
    @Test func theBearerTokenIsSentAsAnAuthorizationHeaderAndNeverShown() async throws {
        let server = try LoopbackServer(status: 500, json: "{}")
        let policy = try RemotePolicy(url: server.url(), protocol: .opa, bearerToken: "T0pS3cr3t")
        let outcome = await timed { try await policy.evaluate(aliceReads) }
        #expect(server.requests.first?.headers["authorization"] == "Bearer T0pS3cr3t")
        #expect(!message(of: outcome.error).contains("T0pS3cr3t"))
        #expect(!"\(policy)".contains("T0pS3cr3t"), "\(policy)")
    }

    @Test(arguments: ["", "a\r\nX-Injected: 1", "tab\there"])
    func aBearerTokenThatCannotBeAHeaderValueIsRefusedWithoutShowingIt(token: String) throws {
        do {
            _ = try RemotePolicy(
                url: URL(string: "http://127.0.0.1:8181/v1/data/x")!, protocol: .opa, bearerToken: token)
            Issue.record("the token was accepted")
        } catch let error as RemotePolicyError {
            #expect(!(error.errorDescription ?? "").contains("Injected"))
        }
    }
}
