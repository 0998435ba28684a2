import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// A key written twice in one object of an answer fails the gate, wherever it is: readers
/// disagree about which one counts (OPA's keeps the last, Foundation's the first), so such an
/// answer is no decision. The reason names the key and the object it is in.
@Suite("RemotePolicy answers with duplicate keys")
struct RemoteAnswerDuplicateKeyTests {
    /// Expects the gate to fail (never allow, never deny) with a reason naming `key` at `place`.
    func expectDuplicate(
        _ body: String, protocol decisionProtocol: RemoteDecisionProtocol = .opa, key: String, place: String
    ) async throws {
        let server = try LoopbackServer(json: body)
        let policy = try RemotePolicy(url: server.url(), protocol: decisionProtocol)
        let outcome = await timed { try await policy.evaluate(aliceReads) }
        #expect(
            remoteKind(outcome.error)
                == .unexpectedBody(
                    "the key \"\(key)\" appears more than once in \(place); an answer with a duplicate key is ambiguous"
                ),
            "\(message(of: outcome.error))")
    }

    @Test func duplicateResultKeysInAnOPAAnswerFailTheGate() async throws {
        try await expectDuplicate(#"{"result": true, "result": false}"#, key: "result", place: "the answer")
        try await expectDuplicate(#"{"result": false, "result": true}"#, key: "result", place: "the answer")
    }

    @Test func duplicateAllowKeysInAnOPAResultObjectFailTheGate() async throws {
        try await expectDuplicate(
            #"{"result": {"allow": true, "allow": false}}"#, key: "allow", place: "\"result\"")
    }

    @Test func aDuplicateKeyTheGateNeverReadsStillFailsTheGate() async throws {
        try await expectDuplicate(
            #"{"result": true, "metrics": {"a": [{"x": 1, "x": 2}]}}"#, key: "x", place: "\"metrics.a[0]\"")
        try await expectDuplicate(
            #"{"decision_id": "1", "result": true, "decision_id": "2"}"#, key: "decision_id",
            place: "the answer")
    }

    @Test func aDuplicateKeyWrittenWithAnEscapeIsStillADuplicate() async throws {
        try await expectDuplicate(
            #"{"result": true, "r\u0065sult": false}"#, key: "result", place: "the answer")
    }

    @Test func duplicateDecisionKeysInAnAuthZENAnswerFailTheGate() async throws {
        try await expectDuplicate(
            #"{"decision": true, "decision": false}"#, protocol: .authzen, key: "decision",
            place: "the answer")
        try await expectDuplicate(
            #"{"decision": false, "context": {"reason": "a", "reason": "b"}}"#, protocol: .authzen,
            key: "reason", place: "\"context\"")
    }

    @Test func notOfARemoteGateWithADuplicateKeyFailsInsteadOfInverting() async throws {
        let server = try LoopbackServer(json: #"{"result": true, "result": false}"#)
        let remote = try RemotePolicy(url: server.url(), protocol: .opa)
        let loader = CountingLoader()
        let proxy = loader.guarded(by: Not(remote))
        do {
            _ = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                try await proxy.load("avatars/alice.png")
            }
            Issue.record("not(remote) allowed an answer with a duplicate key")
        } catch let denied as AccessDenied {
            #expect(denied.isFailure, "\(denied.reason)")
            #expect(denied.reason.contains("\"result\""), "\(denied.reason)")
        }
        #expect(loader.loads.withLock { $0 } == 0)
    }

    @Test func anAnswerNestedDeeperThanTheLimitFailsTheGate() async throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let server = try LoopbackServer(json: #"{"result": true, "extra": \#(deep)}"#)
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        let outcome = await timed { try await policy.evaluate(aliceReads) }
        guard case .unexpectedBody(let text)? = remoteKind(outcome.error) else {
            Issue.record("expected the gate to fail, got \(String(describing: outcome.error))")
            return
        }
        #expect(text.contains("nested deeper than"), "\(text)")
    }
}
