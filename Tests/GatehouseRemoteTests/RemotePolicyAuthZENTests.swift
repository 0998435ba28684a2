import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

@Suite("RemotePolicy speaking the AuthZEN Access Evaluation API")
struct RemotePolicyAuthZENTests {
    @Test func sendsSubjectActionResourceAndContextAndAllowsWhenTheDecisionIsTrue() async throws {
        let server = try LoopbackServer(json: #"{"decision": true}"#)
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        #expect(try await policy.evaluate(aliceReads) == .allow)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.path == "/access/v1/evaluation")
        #expect(
            received.bodyText
                == #"{"action":{"name":"read"},"context":{"device":"managed"},"resource":{"id":"avatars/alice.png","type":"resource"},"subject":{"id":"alice","type":"user"}}"#
        )
    }

    @Test func deniesWithoutAReasonWhenTheContextHasNone() async throws {
        let server = try LoopbackServer(json: #"{"decision": false}"#)
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        #expect(
            try await policy.evaluate(aliceReads)
                == .deny(reason: "the AuthZEN service at \(server.url("/access/v1/evaluation")) denied it"))
    }

    @Test func deniesWithTheReasonStringOfTheContext() async throws {
        let server = try LoopbackServer(json: #"{"decision": false, "context": {"reason": "policy_denied"}}"#)
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        #expect(try await policy.evaluate(aliceReads) == .deny(reason: "policy_denied"))
    }

    @Test func deniesWithTheUserReasonOfAReasonObjectNeverTheAdminReason() async throws {
        let server = try LoopbackServer(
            json: #"""
                {"decision": false, "context": {"reason": {"id": "0",
                  "reason_admin": {"en": "Request failed policy C076E82F"},
                  "reason_user": {"es-403": "Privilegios insuficientes", "en-403": "Insufficient privileges"}}}}
                """#)
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        #expect(try await policy.evaluate(aliceReads) == .deny(reason: "Insufficient privileges"))
    }

    @Test func readsAUserReasonPlacedDirectlyInTheContextAsTheSpecificationShows() async throws {
        let server = try LoopbackServer(
            json:
                #"{"decision": false, "context": {"id": "0", "reason_user": {"en": "location restriction"}}}"#
        )
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        #expect(try await policy.evaluate(aliceReads) == .deny(reason: "location restriction"))
    }

    @Test func neverAsksAboutARequestWithoutASubjectAndFailsInstead() async throws {
        let server = try LoopbackServer(json: #"{"decision": true}"#)
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        let outcome = await timed { try await policy.evaluate(AccessRequest(resource: "public/logo.png")) }
        guard case .unaskable(let text)? = remoteKind(outcome.error) else {
            Issue.record("expected the gate to fail, got \(String(describing: outcome.error))")
            return
        }
        #expect(text.contains("needs a subject"))
        #expect(server.requests.isEmpty)
    }

    @Test func aDecisionThatIsNotABooleanFails() async throws {
        let server = try LoopbackServer(json: #"{"decision": "yes"}"#)
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        let outcome = await timed { try await policy.evaluate(aliceReads) }
        guard case .unexpectedBody(let text)? = remoteKind(outcome.error) else {
            Issue.record("expected the gate to fail, got \(String(describing: outcome.error))")
            return
        }
        #expect(text == #""decision" must be true or false, found a string"#)
    }
}

extension RemotePolicyAuthZENTests {
    /// AuthZEN requires a subject with a `type` and an `id`; an empty id names nobody, and a
    /// service may read it as an anonymous caller it allows. Such a request is never sent.
    @Test func neverAsksAboutARequestWhoseSubjectIsEmptyAndFailsInstead() async throws {
        let server = try LoopbackServer(json: #"{"decision": true}"#)
        let policy = try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen)
        let outcome = await timed {
            try await policy.evaluate(AccessRequest(subject: "", resource: "public/logo.png"))
        }
        guard case .unaskable(let text)? = remoteKind(outcome.error) else {
            Issue.record("expected the gate to fail, got \(String(describing: outcome.error))")
            return
        }
        #expect(text.contains("the request's subject is empty"), "\(text)")
        #expect(server.requests.isEmpty, "sent: \(server.requests.map(\.bodyText))")
    }
}
