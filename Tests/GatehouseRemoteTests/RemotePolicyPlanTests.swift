import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

@Suite("RemotePolicy plans through the AuthZEN Resource Search API")
struct RemotePolicyPlanTests {
    /// A search server: the page of each request is chosen by its `page.token`.
    static func searchServer(_ pages: @escaping @Sendable (String?) -> String) throws -> LoopbackServer {
        try LoopbackServer { _, request in
            let token =
                (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])
                .flatMap { $0["page"] as? [String: Any] }?["token"] as? String
            return [.send(LoopbackServer.response(status: 200, body: Data(pages(token).utf8)))]
        }
    }

    /// A policy on `server` whose plan deadline (600 s) no loaded machine reaches: these tests
    /// are about pages, not time (RemotePlanBoundsTests are about time).
    static func policy(_ server: LoopbackServer) throws -> RemotePolicy {
        try RemotePolicy(
            url: server.url("/access/v1/evaluation"), protocol: .authzen,
            planLimits: RemotePlanLimits(timeout: .seconds(600)))
    }

    @Test func aSearchFollowsNextTokenUntilItIsEmptyWithEveryOtherParameterUnchanged() async throws {
        let server = try Self.searchServer { token in
            switch token {
            case nil: #"{"results": [{"type": "resource", "id": "docs/a"}], "page": {"next_token": "p2"}}"#
            case "p2"?: #"{"results": [{"type": "resource", "id": "docs/b*"}], "page": {"next_token": "p3"}}"#
            default: #"{"results": [{"type": "resource", "id": "docs/c"}], "page": {"next_token": ""}}"#
            }
        }
        let policy = try Self.policy(server)
        let gate = AccessGate(gatekeepers: [policy])
        let plan = try await gate.plan(subject: "alice", action: "read", attributes: ["device": "managed"])
        #expect(plan.isExact)
        #expect(["docs/a", "docs/b*", "docs/c"].allSatisfy(plan.permits))
        // An id is a name, not a pattern: its `*` is text.
        #expect(!plan.permits("docs/bx") && !plan.permits("docs/d"))
        let bodies = server.requests.map(\.bodyText)
        try #require(server.requests.map(\.path) == Array(repeating: "/access/v1/search/resource", count: 3))
        #expect(
            bodies[0]
                == #"{"action":{"name":"read"},"context":{"device":"managed"},"resource":{"type":"resource"},"subject":{"id":"alice","type":"user"}}"#
        )
        #expect(bodies[1].replacingOccurrences(of: #""page":{"token":"p2"},"#, with: "") == bodies[0])
        #expect(bodies[2].replacingOccurrences(of: #""page":{"token":"p3"},"#, with: "") == bodies[0])
    }

    @Test func aServerThatNeverSendsAnEmptyTokenFailsThePlanAfterTheBoundOnPages() async throws {
        let server = try Self.searchServer { _ in
            #"{"results": [{"type": "resource", "id": "docs/a"}], "page": {"next_token": "again"}}"#
        }
        let policy = try Self.policy(server)
        await #expect(throws: RemotePolicyError.self) {
            try await policy.plan(AccessPlan.Request(subject: "alice"))
        }
        #expect(server.requests.count == RemotePolicy.maximumSearchPages)
    }

    @Test(arguments: [
        #"{"results": "docs/a"}"#, #"{"results": [{"id": 7}]}"#,
        #"{"results": [], "page": {"next_token": 3}}"#,
        "not json",
    ])
    func anAnswerOfTheWrongShapeFailsThePlanClosed(body: String) async throws {
        let server = try Self.searchServer { _ in body }
        let policy = try Self.policy(server)
        let plan = try await AccessGate(gatekeepers: [Not(policy)]).plan(subject: "alice", action: "read")
        #expect(plan.residual == .nothing)
    }

    @Test func aFaultOnALaterPageFailsThePlanClosedWhateverTheEarlierPagesFound() async throws {
        let server = try LoopbackServer { connection, _ in
            connection == 0
                ? [
                    .send(
                        LoopbackServer.response(
                            status: 200,
                            body: Data(#"{"results": [{"id": "docs/a"}], "page": {"next_token": "p2"}}"#.utf8)
                        ))
                ]
                : [.send(LoopbackServer.response(status: 500, body: Data("{}".utf8)))]
        }
        let policy = try Self.policy(server)
        let plan = try await AccessGate(gatekeepers: [policy]).plan(subject: "alice", action: "read")
        #expect(!plan.permits("docs/a"))
        #expect(server.requests.count == 2)
    }

    @Test func withOPAOrAnEndpointThatIsNotAnEvaluationEachNameIsChecked() async throws {
        let opa = try RemotePolicy(
            name: "opa", url: URL(string: "http://127.0.0.1:9/v1/data/gatehouse")!, protocol: .opa)
        let other = try RemotePolicy(
            name: "pdp", url: URL(string: "http://127.0.0.1:9/decide")!, protocol: .authzen)
        let plan = try await AccessGate(gatekeepers: [opa, other]).plan(subject: "alice", action: "read")
        #expect(plan.unplanned == ["opa", "pdp"])
        #expect(!plan.permits("docs/a") && plan.candidates.permits("docs/a"))
    }
}
