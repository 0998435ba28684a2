import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// A hostile search service cannot hold a plan past its one deadline nor fill memory past its
/// bounds: every page of one plan counts against ``RemotePlanLimits`` together, and past any
/// bound the plan fails closed, saying which gatekeeper and which bound. As in the fault suite,
/// deadlines are proved by behaviour (the service would go on far longer), not by a tight bound on
/// elapsed time.
@Suite("Remote plans are bounded as a whole")
struct RemotePlanBoundsTests {
    /// A search service whose every page is `page(n)` for the n-th request, after `pause`.
    static func server(
        pause: Duration = .zero, _ page: @escaping @Sendable (Int) -> String
    ) throws -> LoopbackServer {
        try LoopbackServer { connection, _ in
            let answer = ServerStep.send(
                LoopbackServer.response(status: 200, body: Data(page(connection).utf8)))
            return pause == .zero ? [answer] : [.pause(pause), answer]
        }
    }

    /// `count` results `docs/<page>-<i>`, then a next token.
    static func page(_ number: Int, ids count: Int, padding: Int = 0) -> String {
        let results = (0..<count).map { #"{"type": "resource", "id": "docs/\#(number)-\#($0)"}"# }
        let pad = String(repeating: " ", count: padding)
        return
            #"{"results": [\#(results.joined(separator: ", "))], "page": {"next_token": "p\#(number + 1)"}\#(pad)}"#
    }

    /// A plan deadline no loaded machine reaches, for the tests about ids and bytes (each request's
    /// timeout too: a 900 KiB page on a starved machine may take more than a second).
    static let noDeadline = Duration.seconds(600)

    func policy(_ server: LoopbackServer, _ limits: RemotePlanLimits, timeout: Duration = .seconds(1))
        throws -> RemotePolicy
    {
        try RemotePolicy(
            name: "pdp", url: server.url("/access/v1/evaluation"), protocol: .authzen, timeout: timeout,
            planLimits: limits)
    }

    @Test func aServiceDrippingEndlessPagesFailsThePlanAtItsOneDeadlineNotAtEachPages() async throws {
        // Each page comes 50 ms after its request, well within the page timeout of 1 s, and each
        // names another: one page at a time, 1,000 pages would take 50 s.
        let server = try Self.server(pause: .milliseconds(50)) { Self.page($0, ids: 1) }
        let limits = RemotePlanLimits(timeout: .milliseconds(400))
        let policy = try policy(server, limits)
        let outcome = await timed { try await policy.plan(AccessPlan.Request(subject: "alice")) }
        #expect(
            remoteKind(outcome.error) == .planTimedOut(gatekeeper: "pdp", .milliseconds(400)),
            "\(message(of: outcome.error))")
        #expect(outcome.elapsed >= .milliseconds(360))
        #expect(server.requests.count < 50)
        let text = message(of: outcome.error)
        #expect(text.contains("\"pdp\"") && text.contains("400 ms") && text.contains("planTimeout"))
    }

    @Test func onePageSlowerThanWhatIsLeftOfThePlanFailsAtThePlansDeadline() async throws {
        // The page timeout (5 s) would wait for the answer at 3 s; the plan's deadline does not.
        let server = try Self.server(pause: .seconds(3)) { Self.page($0, ids: 1) }
        let policy = try policy(server, RemotePlanLimits(timeout: .milliseconds(300)), timeout: .seconds(5))
        let outcome = await timed { try await policy.plan(AccessPlan.Request(subject: "alice")) }
        #expect(remoteKind(outcome.error) == .planTimedOut(gatekeeper: "pdp", .milliseconds(300)))
    }

    @Test func endlessContinuationTokensFailThePlanAtTheBoundOnIds() async throws {
        let server = try Self.server { Self.page($0, ids: 100) }
        let policy = try policy(
            server, RemotePlanLimits(timeout: Self.noDeadline, maxIds: 250), timeout: Self.noDeadline)
        let outcome = await timed { try await policy.plan(AccessPlan.Request(subject: "alice")) }
        #expect(
            remoteKind(outcome.error) == .planTooLarge(gatekeeper: "pdp", bound: "250 ids (maxPlanIds)"),
            "\(message(of: outcome.error))")
        #expect(server.requests.count == 3)
    }

    @Test func hugePagesFailThePlanAtTheBoundOnBytesAcrossPages() async throws {
        // Each page is about 64 KiB, under the page limit (1 MiB); together they pass 200,000.
        let server = try Self.server { Self.page($0, ids: 1, padding: 64 << 10) }
        let policy = try policy(
            server, RemotePlanLimits(timeout: Self.noDeadline, maxBytes: 200_000), timeout: Self.noDeadline)
        let outcome = await timed { try await policy.plan(AccessPlan.Request(subject: "alice")) }
        #expect(
            remoteKind(outcome.error)
                == .planTooLarge(gatekeeper: "pdp", bound: "200000 bytes (maxPlanBytes)"),
            "\(message(of: outcome.error))")
        #expect(server.requests.count == 4)
    }

    @Test func aPageLargerThanWhatIsLeftIsCutAtTheBoundNotReadWhole() async throws {
        let server = try Self.server { Self.page($0, ids: 1, padding: 900 << 10) }
        let policy = try policy(
            server, RemotePlanLimits(timeout: Self.noDeadline, maxBytes: 100_000), timeout: Self.noDeadline)
        let outcome = await timed { try await policy.plan(AccessPlan.Request(subject: "alice")) }
        #expect(
            remoteKind(outcome.error)
                == .planTooLarge(gatekeeper: "pdp", bound: "100000 bytes (maxPlanBytes)"))
        #expect(server.requests.count == 1)
    }

    @Test(arguments: [#"docs/\u0000x"#, #"docs/e\u0301"#, #"docs/\u0085"#])
    func anIdThatNoRequestCanNameFailsThePlanClosedNeverDroppedIntoAnAllow(id: String) async throws {
        let server = try Self.server { _ in
            #"{"results": [{"id": "docs/a"}, {"id": "\#(id)"}], "page": {"next_token": ""}}"#
        }
        let policy = try policy(server, RemotePlanLimits())
        let outcome = await timed { try await policy.plan(AccessPlan.Request(subject: "alice")) }
        guard case .unexpectedBody(let text)? = remoteKind(outcome.error) else {
            Issue.record("expected an unexpected body, found \(message(of: outcome.error))")
            return
        }
        #expect(text.contains("\"pdp\"") && text.contains("fails closed"))
        // Through the gate and under `not`, the failed part permits nothing.
        let plan = try await AccessGate(gatekeepers: [policy]).plan(subject: "alice", action: "read")
        #expect(!plan.permits("docs/a") && plan.residual == .nothing)
        let inverted = try await AccessGate(gatekeepers: [Not(policy)]).plan(subject: "alice", action: "read")
        #expect(inverted.residual == .nothing)
    }

    @Test func theDefaultsAreTenSecondsAHundredThousandIdsAndSixteenMebibytes() throws {
        let limits = RemotePlanLimits()
        #expect(limits.timeout == .seconds(10) && limits.maxIds == 100_000 && limits.maxBytes == 16 << 20)
        let policy = try RemotePolicy(
            url: URL(string: "http://127.0.0.1:9/access/v1/evaluation")!, protocol: .authzen)
        #expect(policy.planLimits == limits)
    }

    @Test(arguments: [
        RemotePlanLimits(timeout: .zero), RemotePlanLimits(maxIds: 0), RemotePlanLimits(maxBytes: -1),
    ])
    func aBoundThatIsNotPositiveIsRefused(limits: RemotePlanLimits) {
        #expect(throws: RemotePolicyError.self) {
            try RemotePolicy(
                url: URL(string: "http://127.0.0.1:9/access/v1/evaluation")!, protocol: .authzen,
                planLimits: limits)
        }
    }
}
