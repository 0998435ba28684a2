import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// The fault table: every way a decision service can fail to decide makes the gate fail (it
/// throws `RemotePolicyError`), never deny and never allow.
///
/// The whole test suite runs in parallel on a small machine, where a task may wait seconds for a
/// thread, so no test bounds how long a call took from above. Each timeout test proves the
/// deadline by behaviour instead: the service would have answered "allow" later (or never idles
/// long enough for a read timeout), so only the deadline can make the call fail as `timedOut`.
@Suite("RemotePolicy faults")
struct RemotePolicyFaultTests {
    static let timeout = Duration.milliseconds(300)
    static let allow = Data(#"{"result": true}"#.utf8)

    func policy(_ server: LoopbackServer) throws -> RemotePolicy {
        try RemotePolicy(url: server.url(), protocol: .opa, timeout: Self.timeout)
    }

    /// Expects a timeout failure that did not come before the deadline.
    func expectTimedOut(_ outcome: (error: (any Error)?, elapsed: Duration)) {
        #expect(remoteKind(outcome.error) == .timedOut(Self.timeout), "\(message(of: outcome.error))")
        #expect(outcome.elapsed >= Self.timeout * 0.9)
    }

    @Test func aServiceThatNeverAcceptsTheConnectionFailsAtTheTimeout() async throws {
        let server = try LoopbackServer(accepting: false) { _, _ in [] }
        let policy = try policy(server)
        expectTimedOut(await timed { try await policy.evaluate(aliceReads) })
    }

    @Test func aServiceSlowToAnswerFailsAtTheTimeoutThoughItWouldAllowLater() async throws {
        let server = try LoopbackServer { _, _ in
            [.pause(.seconds(10)), .send(LoopbackServer.response(status: 200, body: Self.allow))]
        }
        let policy = try policy(server)
        expectTimedOut(await timed { try await policy.evaluate(aliceReads) })
    }

    @Test func aSlowBodyFailsAtTheTimeoutThoughBytesKeepComing() async throws {
        // The head at once, then the body of an allow a byte every 100 ms, complete after about
        // 3 s: never idle long enough for a read timeout, so only the deadline stops it.
        let body = Data(#"{"result": true}"#.utf8) + Data(repeating: 0x20, count: 14)
        let server = try LoopbackServer { _, _ in
            [.send(LoopbackServer.head(status: 200, contentLength: body.count))]
                + body.flatMap { byte in [ServerStep.pause(.milliseconds(100)), .send(Data([byte]))] }
        }
        let policy = try policy(server)
        expectTimedOut(await timed { try await policy.evaluate(aliceReads) })
    }

    @Test func aRefusedConnectionFails() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let url = URL(string: "http://127.0.0.1:\(port)/v1/data/gatehouse")!
        let policy = try RemotePolicy(url: url, protocol: .opa, timeout: .seconds(5))
        let outcome = await timed { try await policy.evaluate(aliceReads) }
        guard case .transport? = remoteKind(outcome.error) else {
            Issue.record("expected a transport failure, got \(String(describing: outcome.error))")
            return
        }
        #expect(message(of: outcome.error).contains(url.absoluteString))
    }

    @Test func aConnectionResetMidBodyFails() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .send(LoopbackServer.head(status: 200, contentLength: 200)),
                .send(Data(#"{"result": tr"#.utf8)),
                .pause(.milliseconds(50)), .reset,
            ]
        }
        let outcome = await timed { try await policy(server).evaluate(aliceReads) }
        guard case .transport? = remoteKind(outcome.error) else {
            Issue.record("expected a transport failure, got \(String(describing: outcome.error))")
            return
        }
    }

    @Test func aServerErrorFailsAndShowsTheStartOfItsBody() async throws {
        let server = try LoopbackServer(status: 500, json: #"{"code": "internal_error", "message": "boom"}"#)
        let outcome = await timed { try await policy(server).evaluate(aliceReads) }
        guard case .status(500, let body)? = remoteKind(outcome.error) else {
            Issue.record("expected a status failure, got \(String(describing: outcome.error))")
            return
        }
        #expect(body.contains("internal_error"))
        #expect(message(of: outcome.error).contains("answered HTTP 500"))
    }

    @Test func garbageWithStatus200Fails() async throws {
        let server = try LoopbackServer(json: "<html>\u{1B}[31mnot json</html>")
        let outcome = await timed { try await policy(server).evaluate(aliceReads) }
        guard case .unexpectedBody(let text)? = remoteKind(outcome.error) else {
            Issue.record("expected an unexpected body, got \(String(describing: outcome.error))")
            return
        }
        #expect(text.hasPrefix("the body is not JSON"))
        #expect(!text.contains("\u{1B}"), "a control character from the service reached the message")
    }

    @Test(
        arguments: [
            (
                #"{"result": "allow"}"#,
                #""result" must be true, false or an object with "allow", found a string"#
            ),
            (
                #"{"result": 1}"#,
                #""result" must be true, false or an object with "allow", found the number 1"#
            ),
            (#"{"result": null}"#, #""result" must be true, false or an object with "allow", found null"#),
            (#"{"result": {"reason": "x"}}"#, #""result.allow" must be true or false, found no "allow""#),
            (#"{"result": {"allow": "true"}}"#, #""result.allow" must be true or false, found a string"#),
            (
                #"{"result": {"allow": false, "reason": 7}}"#,
                #""result.reason" must be a string, found the number 7"#
            ),
            (#"[true]"#, #"expected a JSON object with "result", found an array"#),
        ])
    func aBodyOfTheWrongShapeFails(body: String, message: String) async throws {
        let server = try LoopbackServer(json: body)
        let outcome = await timed { try await policy(server).evaluate(aliceReads) }
        #expect(remoteKind(outcome.error) == .unexpectedBody(message))
    }

    @Test func aTenMegabyteBodyFailsBeforeItIsRead() async throws {
        let size = 10 << 20
        let server = try LoopbackServer { _, _ in
            [
                .send(LoopbackServer.head(status: 200, contentLength: size)),
                .send(Data(repeating: 0x20, count: size)),
            ]
        }
        let policy = try RemotePolicy(url: server.url(), protocol: .opa, timeout: .seconds(10))
        let outcome = await timed { try await policy.evaluate(aliceReads) }
        #expect(remoteKind(outcome.error) == .tooLarge(limit: RemotePolicy.defaultMaxResponseBytes))
    }

    @Test func aTenMegabyteBodyWithoutALengthIsCutOffAtTheLimit() async throws {
        let size = 10 << 20
        let server = try LoopbackServer { _, _ in
            [
                .send(LoopbackServer.head(status: 200, contentLength: nil)),
                .send(Data(repeating: 0x20, count: size)),
            ]
        }
        let policy = try RemotePolicy(
            url: server.url(), protocol: .opa, timeout: .seconds(10), maxResponseBytes: 64 << 10)
        let outcome = await timed { try await policy.evaluate(aliceReads) }
        #expect(remoteKind(outcome.error) == .tooLarge(limit: 64 << 10))
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let server = try LoopbackServer { index, _ in
            guard index == 0 else {
                return [.send(LoopbackServer.response(status: 200, body: Data(#"{"result": true}"#.utf8)))]
            }
            return [
                .send(LoopbackServer.response(status: 307, body: Data(), headers: ["Location: /elsewhere"]))
            ]
        }
        // A generous deadline: under load, a short one could end the call before the 307 arrives.
        let patient = try RemotePolicy(url: server.url(), protocol: .opa, timeout: .seconds(10))
        let outcome = await timed { try await patient.evaluate(aliceReads) }
        guard case .status(307, _)? = remoteKind(outcome.error) else {
            Issue.record("expected a status failure, got \(String(describing: outcome.error))")
            return
        }
        #expect(server.requests.count == 1)
    }
}

/// Cancelling the task that asks cancels the HTTP request: the call ends with
/// `CancellationError` long before the service would answer, and the service sees its
/// connection closed.
@Suite("RemotePolicy cancellation")
struct RemotePolicyCancellationTests {
    @Test func cancellingTheCallerCancelsTheRequestAndClosesTheConnection() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .pause(.seconds(300)),
                .send(LoopbackServer.response(status: 200, body: Data(#"{"result":true}"#.utf8))),
            ]
        }
        // The bounds are far apart on purpose: the request arrives within milliseconds and the
        // test ends well within a second, but on a loaded machine this test's tasks have waited
        // about a minute for a thread (a CI run with every core busy). Only a call that waits
        // for the service's answer, 300 s away, fails it.
        let policy = try RemotePolicy(url: server.url(), protocol: .opa, timeout: .seconds(600))
        let clock = ContinuousClock()
        let start = clock.now
        let call = Task { try await policy.evaluate(aliceReads) }
        #expect(
            await server.waitUntil(within: .seconds(240)) { $0.requests.count == 1 }, "no request arrived")
        call.cancel()
        let result = await call.result
        #expect(clock.now - start < .seconds(300), "the call waited for the service's answer")
        switch result {
        case .success(let decision): Issue.record("a cancelled call decided: \(decision)")
        case .failure(let error): #expect(error is CancellationError, "\(error)")
        }
        #expect(
            await server.waitUntil(within: .seconds(240)) { $0.closedByClient == 1 },
            "the server never saw the connection closed")
    }

    @Test func aCallerCancelledBeforehandSendsNothing() async throws {
        let server = try LoopbackServer(json: #"{"result": true}"#)
        let policy = try RemotePolicy(url: server.url(), protocol: .opa)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await policy.evaluate(aliceReads)
        }
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(server.requests.isEmpty)
    }
}
