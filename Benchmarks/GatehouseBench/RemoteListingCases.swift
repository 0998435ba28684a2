import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport

/// `list-remote-batch-1k` and `list-remote-each-1k`: what alice may read among 1,000 names,
/// through a proxy whose one gatekeeper is a `RemotePolicy` asking an AuthZEN service on the
/// loopback interface (the tests' `LoopbackServer`, one connection per request). With
/// `"batch": "evaluations"` the names go in 10 Access Evaluations requests of 100; without, each
/// name is one evaluation request. The ratio is what a batch saves in round trips.
func remoteListingCases(wanted: (String) -> Bool) throws -> [BenchCase] {
    guard wanted("list-remote-batch-1k") || wanted("list-remote-each-1k") else { return [] }
    let server = try LoopbackServer { _, request in
        let body: String
        if request.path.hasSuffix("/evaluations") {
            let count =
                (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])
                .flatMap { $0["evaluations"] as? [Any] }?.count ?? 0
            let answers = (0..<count).map { #"{"decision": \#($0 % 2 == 0)}"# }
            body = #"{"evaluations": [\#(answers.joined(separator: ", "))]}"#
        } else {
            body = #"{"decision": true}"#
        }
        return [.send(LoopbackServer.response(status: 200, body: Data(body.utf8)))]
    }
    let url = server.url("/access/v1/evaluation")
    let names = (0..<1_000).map { "docs/doc-\($0)" }
    let batched = try RemotePolicy(
        name: "pdp", url: url, protocol: .authzen, timeout: .seconds(5),
        batching: .evaluations(server.url("/access/v1/evaluations")))
    let each = try RemotePolicy(name: "pdp", url: url, protocol: .authzen, timeout: .seconds(5))
    let alice = AccessContext(subject: "alice")
    func listing(_ policy: RemotePolicy) -> @Sendable (Int) async throws -> Int {
        let proxy = AccessProxy(FixedNames(names: names), gatekeepers: [policy])
        return { n in
            try await AccessContext.$current.withValue(alice) {
                var sum = 0
                for _ in 0..<n { sum &+= try await proxy.keys(under: "docs").count }
                return withExtendedLifetime(server) { sum }
            }
        }
    }
    return [
        BenchCase(
            "list-remote-batch-1k", "1,000 names, AuthZEN Access Evaluations in pages of 100 on loopback",
            iterations: 20, quick: 3, body: listing(batched)),
        BenchCase(
            "list-remote-each-1k", "the same listing, one AuthZEN evaluation request per name",
            iterations: 2, quick: 1, body: listing(each)),
    ]
}

/// A listing of fixed names, each loading as itself.
private struct FixedNames: ResourceLoading, ResourceListing {
    let names: [String]

    func load(_ key: String) async throws -> String { key }

    func keys(under prefix: String) async throws -> [String] { names }
}
