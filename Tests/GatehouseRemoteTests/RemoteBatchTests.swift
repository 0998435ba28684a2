import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// A remote gatekeeper that must check each name asks AuthZEN's Access Evaluations API in pages
/// of a bounded size when its configuration says the service has it (or its discovery document
/// does), and every fault of a page fails that page's names closed.
@Suite("Remote listings ask AuthZEN Access Evaluations in pages")
struct RemoteBatchTests {
    /// Allows `docs/` names but `docs/secret*`.
    static func allows(_ id: String) -> Bool { id.hasPrefix("docs/") && !id.hasPrefix("docs/secret") }

    /// The ids a request's body asks about: each evaluation's, or the one resource's.
    static func ids(in body: Data) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        if let evaluations = object["evaluations"] as? [[String: Any]] {
            return evaluations.map { ($0["resource"] as? [String: Any])?["id"] as? String ?? "" }
        }
        return [(object["resource"] as? [String: Any])?["id"] as? String ?? ""]
    }

    /// An AuthZEN service: the evaluation and evaluations endpoints, and a discovery document;
    /// `answers` may change the list of decisions of the n-th request.
    static func service(
        document: @escaping @Sendable (UInt16) -> String? = { _ in nil },
        answers: @escaping @Sendable (Int, [String]) -> String? = { _, _ in nil }
    ) throws -> LoopbackServer {
        let port = LockedState<UInt16>(0)
        let server = try LoopbackServer { connection, request in
            let body: String
            if request.method == "GET" {
                guard let text = document(port.withLock { $0 }) else {
                    return [.send(LoopbackServer.response(status: 404, body: Data("{}".utf8)))]
                }
                body = text
            } else if request.path.hasSuffix("/evaluations") {
                let ids = ids(in: request.body)
                body =
                    answers(connection, ids)
                    ?? #"{"evaluations": [\#(ids.map { #"{"decision": \#(allows($0))}"# }.joined(separator: ", "))]}"#
            } else {
                // Listing a folder is allowed; reading a name as `allows` says.
                let listing = request.bodyText.contains(#""action":{"name":"list"}"#)
                body = #"{"decision": \#(listing || allows(ids(in: request.body)[0]))}"#
            }
            return [.send(LoopbackServer.response(status: 200, body: Data(body.utf8)))]
        }
        port.withLock { $0 = server.port }
        return server
    }

    static func names(_ count: Int) -> [String] {
        (0..<count).map { $0 % 3 == 0 ? "docs/secret-\($0)" : $0 % 3 == 1 ? "docs/\($0)" : "other/\($0)" }
    }

    static func requests(_ names: [String], subject: String? = "alice") -> [AccessRequest] {
        names.map {
            AccessRequest(subject: subject, action: "read", resource: $0, attributes: ["device": "managed"])
        }
    }

    /// How a test's policy batches: not at all, at the endpoint beside its URL, or as discovered.
    enum Batching { case none, beside, discover }

    func policy(_ server: LoopbackServer, _ batching: Batching = .none, batchSize: Int = 100) throws
        -> RemotePolicy
    {
        let url = server.url("/access/v1/evaluation")
        let chosen: RemoteBatching =
            switch batching {
            case .none: .none
            case .beside: .evaluations(server.url("/access/v1/evaluations"))
            case .discover: .discover
            }
        return try RemotePolicy(
            name: "pdp", url: url, protocol: .authzen, batching: chosen, batchSize: batchSize)
    }

    @Test func aBatchIsAskedInPagesOfTheBatchSizeAndAgreesWithAskingOneByOne() async throws {
        let server = try Self.service()
        let batched = try policy(server, .beside)
        let names = Self.names(250)
        let allowed = try await AccessGate(gatekeepers: [batched]).permitted(Self.requests(names)).map(
            \.resource)
        #expect(allowed == names.filter(Self.allows))
        #expect(server.requests.map(\.path) == Array(repeating: "/access/v1/evaluations", count: 3))
        #expect(server.requests.map { Self.ids(in: $0.body).count } == [100, 100, 50])
        let oneByOne = try policy(server)
        let each = try await AccessGate(gatekeepers: [oneByOne]).permitted(Self.requests(names)).map(
            \.resource)
        #expect(each == allowed)
        #expect(server.requests.count == 3 + 250)
    }

    @Test func theBodyHoldsTheDefaultsOnceAndEachResourceWithItsOwnDifferences() async throws {
        let server = try Self.service()
        var requests = Self.requests(["docs/a", "docs/b"])
        requests[1].subject = "bob"
        _ = try await AccessGate(gatekeepers: [policy(server, .beside)]).permitted(requests)
        #expect(
            server.requests.first?.bodyText
                == #"{"action":{"name":"read"},"context":{"device":"managed"},"evaluations":[{"resource":{"id":"docs/a","type":"resource"}},{"resource":{"id":"docs/b","type":"resource"},"subject":{"id":"bob","type":"user"}}],"options":{"evaluations_semantic":"execute_all"},"subject":{"id":"alice","type":"user"}}"#
        )
    }

    @Test func aListingThroughTheProxyAsksOncePerPage() async throws {
        let server = try Self.service()
        let names = Self.names(30)
        let proxy = AccessProxy(
            NameList(names: names), gatekeepers: [try policy(server, .beside, batchSize: 16)])
        let listed = try await AccessContext.with(subject: "alice") { try await proxy.keys(under: "") }
        #expect(listed == names.filter(Self.allows))
        // The folder's own check, then the 30 names in two pages.
        #expect(server.requests.map(\.path).first == "/access/v1/evaluation")
        #expect(server.requests.map { Self.ids(in: $0.body).count }.dropFirst() == [16, 14])
    }

    @Test(arguments: [
        #"{"evaluations": [{"decision": true}]}"#,
        #"{"evaluations": [{"decision": true}, {"decision": true}, {"decision": true}]}"#,
        #"{"evaluations": [{"decision": true}, {"decision": 1}]}"#,
        #"{"evaluations": [{"decision": true}, {"decision": true}], "evaluations": []}"#,
        #"{"decisions": [true, true]}"#,
    ])
    func aPageWhoseAnswersCannotBeMatchedFailsEveryNameOfItClosed(answer: String) async throws {
        let server = try Self.service(answers: { _, _ in answer })
        let gate = AccessGate(gatekeepers: [try policy(server, .beside)])
        let requests = Self.requests(["docs/a", "docs/b"])
        #expect(try await gate.permitted(requests).isEmpty)
        let verdicts = try await gate.decide(requests: requests)
        #expect(verdicts.allSatisfy { $0.outcome == .failed && $0.gatekeeper == "pdp" })
    }

    @Test func aFailingPageFailsItsOwnNamesOnlyAndUnderNotStaysFailed() async throws {
        let server = try Self.service(answers: { connection, _ in connection == 1 ? "not json" : nil })
        let names = (0..<6).map { "docs/\($0)" }
        let policy = try policy(server, .beside, batchSize: 2)
        let allowed = try await AccessGate(gatekeepers: [policy]).permitted(Self.requests(names))
        #expect(allowed.map(\.resource) == ["docs/0", "docs/1", "docs/4", "docs/5"])
        let inverted = try await AccessGate(gatekeepers: [Not(policy)]).permitted(Self.requests(names))
        #expect(inverted.isEmpty)
    }

    @Test func aRequestThatCannotBeAskedFailsAloneAndTheRestAreAskedTogether() async throws {
        let server = try Self.service()
        let requests = Self.requests(["docs/a"], subject: nil) + Self.requests(["docs/b", "docs/c"])
        let allowed = try await AccessGate(gatekeepers: [policy(server, .beside)]).permitted(requests)
        #expect(allowed.map(\.resource) == ["docs/b", "docs/c"])
        #expect(server.requests.map { Self.ids(in: $0.body) } == [["docs/b", "docs/c"]])
    }

    @Test func eachCombinatorAndANamedGatekeeperPassTheWholeBatchToTheService() async throws {
        let server = try Self.service()
        let policy = try policy(server, .beside)
        let names = Self.names(9)
        let holders: [(any AccessPolicy, [String])] = [
            (AllOf(AlwaysAllow(), policy), names.filter(Self.allows)),
            (AnyOf(AlwaysDeny(), policy), names.filter(Self.allows)),
            (Not(policy), names.filter { !Self.allows($0) }),
        ]
        for (holder, expected) in holders {
            let allowed = try await AccessGate(gatekeepers: [holder]).permitted(Self.requests(names))
            #expect(allowed.map(\.resource) == expected, "\(holder.name)")
        }
        #expect(server.requests.map { Self.ids(in: $0.body).count } == [9, 9, 9])
    }

    @Test func theDiscoveryDocumentNamesTheEndpointAndIsReadOnce() async throws {
        let server = try Self.service(document: { port in
            #"{"policy_decision_point": "http://127.0.0.1:\#(port)", "access_evaluations_endpoint": "http://127.0.0.1:\#(port)/pdp/evaluations"}"#
        })
        let gate = AccessGate(gatekeepers: [try policy(server, .discover)])
        for _ in 0..<2 { _ = try await gate.permitted(Self.requests(["docs/a", "docs/b"])) }
        #expect(
            server.requests.map { "\($0.method) \($0.path)" } == [
                "GET /.well-known/authzen-configuration", "POST /pdp/evaluations", "POST /pdp/evaluations",
            ])
    }

    @Test func aDocumentThatNamesNoEndpointMeansOneByOne() async throws {
        let server = try Self.service(document: { _ in #"{"policy_decision_point": "x"}"# })
        let allowed = try await AccessGate(gatekeepers: [try policy(server, .discover)])
            .permitted(Self.requests(["docs/a", "other/b"]))
        #expect(allowed.map(\.resource) == ["docs/a"])
        #expect(
            server.requests.map(\.path).dropFirst() == ["/access/v1/evaluation", "/access/v1/evaluation"])
    }

    @Test(arguments: [
        #"{"access_evaluations_endpoint": "http://pdp.example/access/v1/evaluations"}"#,
        #"{"access_evaluations_endpoint": 7}"#, "not json",
    ])
    func aDocumentThatCannotBeUsedFailsTheBatchClosed(document: String) async throws {
        let server = try Self.service(document: { _ in document })
        let gate = AccessGate(gatekeepers: [try policy(server, .discover)])
        let verdicts = try await gate.decide(requests: Self.requests(["docs/a", "docs/b"]))
        #expect(verdicts.allSatisfy { $0.outcome == .failed })
        #expect(server.requests.allSatisfy { $0.method == "GET" })
    }

    @Test func aMissingDocumentFailsTheBatchClosedAndIsAskedAgainNextTime() async throws {
        let server = try Self.service()
        let gate = AccessGate(gatekeepers: [try policy(server, .discover)])
        for _ in 0..<2 { #expect(try await gate.permitted(Self.requests(["docs/a", "docs/b"])).isEmpty) }
        #expect(server.requests.count == 2)
    }

    @Test func aSingleDecisionStillAsksTheEvaluationEndpoint() async throws {
        let server = try Self.service()
        let verdict = try await AccessGate(gatekeepers: [policy(server, .beside)]).decide(aliceReads)
        #expect(verdict.outcome == .denied)
        #expect(server.requests.map(\.path) == ["/access/v1/evaluation"])
    }

    @Test func batchingIsRefusedWithOPAAndABatchSizeMustBePositive() throws {
        let url = URL(string: "http://127.0.0.1:9/access/v1/evaluation")!
        #expect(throws: RemotePolicyError.self) {
            try RemotePolicy(url: url, protocol: .opa, batching: .discover)
        }
        #expect(throws: RemotePolicyError.self) {
            try RemotePolicy(url: url, protocol: .authzen, batching: .discover, batchSize: 0)
        }
        #expect(
            try RemotePolicy(url: url, protocol: .authzen).evaluationsURL?.absoluteString
                == "http://127.0.0.1:9/access/v1/evaluations")
    }
}

/// A listing of fixed names, each loading as itself.
struct NameList: ResourceLoading, ResourceListing {
    let names: [String]
    func load(_ key: String) async throws -> String { key }
    func keys(under prefix: String) async throws -> [String] { names }
}

extension AccessGate {
    /// The verdicts of `requests` decided together, as a listing decides its names.
    func decide(requests: [AccessRequest]) async throws -> [AccessVerdict] {
        try await decide(requests.map { ($0, nil) }, identity: identity, explained: true)
    }
}
