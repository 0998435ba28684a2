import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

@Suite("RemotePolicy speaking OPA's data API")
struct RemotePolicyOPATests {
    @Test func sendsTheRequestAsOPAInputAndAllowsWhenTheResultIsTrue() async throws {
        let server = try LoopbackServer(json: #"{"result": true}"#)
        let policy = try RemotePolicy(url: server.url("/v1/data/gatehouse"), protocol: .opa)
        #expect(try await policy.evaluate(aliceReads) == .allow)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.path == "/v1/data/gatehouse")
        #expect(received.headers["content-type"] == "application/json")
        #expect(
            received.bodyText
                == #"{"input":{"action":"read","attributes":{"device":"managed"},"origins":{"device":"caller"},"resource":"avatars/alice.png","subject":"alice"}}"#
        )
    }

    @Test func leavesOutTheSubjectOfARequestThatHasNone() async throws {
        let server = try LoopbackServer(json: #"{"result": false}"#)
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        _ = try await policy.evaluate(AccessRequest(resource: "public/logo.png"))
        #expect(
            server.requests.first?.bodyText
                == #"{"input":{"action":"read","attributes":{},"origins":{},"resource":"public/logo.png"}}"#)
    }

    @Test func deniesWhenTheResultIsFalse() async throws {
        let server = try LoopbackServer(json: #"{"result": false}"#)
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        let decision = try await policy.evaluate(aliceReads)
        #expect(
            decision == .deny(reason: "the OPA policy at \(server.url().absoluteString) does not allow it"))
    }

    @Test func allowsWhenTheResultObjectAllows() async throws {
        let server = try LoopbackServer(
            json: #"{"decision_id": "d-1", "result": {"allow": true, "reason": "owner"}}"#)
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        #expect(try await policy.evaluate(aliceReads) == .allow)
    }

    @Test func deniesWithTheReasonOfTheResultObject() async throws {
        let server = try LoopbackServer(json: #"{"result": {"allow": false, "reason": "alice is on leave"}}"#)
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        #expect(try await policy.evaluate(aliceReads) == .deny(reason: "alice is on leave"))
    }

    @Test func aReasonHasItsControlCharactersEscapedSoItCannotForgeALine() async throws {
        let server = try LoopbackServer(
            json: #"{"result": {"allow": false, "reason": "no\nallowed: yes\u001b[0m"}}"#)
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        #expect(try await policy.evaluate(aliceReads) == .deny(reason: #"no\u{a}allowed: yes\u{1b}[0m"#))
    }

    @Test func anUndefinedDecisionDenies() async throws {
        let server = try LoopbackServer(json: "{}")
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        let decision = try await policy.evaluate(aliceReads)
        #expect(decision.isAllowed == false)
        #expect(decision.reason?.contains("is undefined") == true)
    }

    @Test func aGrantIsNeverCachedTwoCallsAreTwoRequests() async throws {
        let server = try LoopbackServer { index, _ in
            let body = index == 0 ? #"{"result": true}"# : #"{"result": false}"#
            return [.send(LoopbackServer.response(status: 200, body: Data(body.utf8)))]
        }
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        #expect(try await policy.evaluate(aliceReads) == .allow)
        #expect(try await policy.evaluate(aliceReads).isAllowed == false)
        #expect(server.requests.count == 2)
    }

    @Test func aFailingServiceDeniesThroughTheProxyAsAGateFailureEvenUnderNot() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let url = URL(string: "http://127.0.0.1:\(port)/v1/data/gatehouse")!
        let remote = try RemotePolicy(name: "opa", url: url, protocol: .opa, timeout: .seconds(2))
        let loader = CountingLoader()
        for proxy in [loader.guarded(by: remote), loader.guarded(by: Not(remote))] {
            do {
                _ = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                    try await proxy.load("avatars/alice.png")
                }
                Issue.record("a failing remote gate allowed the call")
            } catch let denied as AccessDenied {
                #expect(denied.isFailure)
                #expect(denied.reason.contains(url.absoluteString))
            }
        }
        #expect(loader.loads.withLock { $0 } == 0)
    }

    @Test func aURLThatIsNotHTTPCannotBeUsed() throws {
        #expect(throws: RemotePolicyError.self) {
            try RemotePolicy(url: URL(fileURLWithPath: "/tmp/opa"), protocol: .opa)
        }
        #expect(throws: RemotePolicyError.self) {
            try RemotePolicy(url: URL(string: "http://127.0.0.1:1/")!, protocol: .opa, timeout: .zero)
        }
    }
}
