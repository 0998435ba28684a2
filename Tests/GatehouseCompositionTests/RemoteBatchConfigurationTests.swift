import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// The plan bounds and batch settings of the remote gatekeeper: each reaches the policy, each
/// error names its key, and a configured service lists through Access Evaluations.
@Suite("Remote plan bounds and batches in a configuration")
struct RemoteBatchConfigurationTests {
    static let authzen =
        #""type": "remote", "protocol": "authzen", "url": "http://127.0.0.1:9/access/v1/evaluation""#
    static let opa = #""type": "remote", "protocol": "opa", "url": "http://127.0.0.1:9/v1/data/gatehouse""#

    /// The remote policy of a one-gatekeeper service whose settings follow `authzen`.
    func policy(_ settings: String) throws -> RemotePolicy? {
        let services = try Assembler().assemble(
            json: Data(service(gatekeepers: "[{ \(Self.authzen)\(settings) }]").utf8),
            baseDirectory: FileManager.default.temporaryDirectory)
        return try services.service(named: "s").gate.gatekeepers.first?.policy as? RemotePolicy
    }

    @Test func eachSettingReachesThePolicyAndTheDefaultsHoldWithoutThem() throws {
        let defaults = try #require(try policy(""))
        #expect(defaults.planLimits == RemotePlanLimits() && defaults.batching == .none)
        #expect(defaults.batchSize == RemotePolicy.defaultBatchSize)
        let set = try #require(
            try policy(
                #", "planTimeout": "3s", "maxPlanIds": 500, "maxPlanBytes": 65536, "batch": "evaluations", "batchSize": 25"#
            ))
        #expect(set.planLimits == RemotePlanLimits(timeout: .seconds(3), maxIds: 500, maxBytes: 65536))
        #expect(set.batching == .evaluations(URL(string: "http://127.0.0.1:9/access/v1/evaluations")!))
        #expect(set.batchSize == 25)
        let path = try #require(try policy(#", "batch": "evaluations", "evaluationsPath": "/pdp/many""#))
        #expect(path.batching == .evaluations(URL(string: "http://127.0.0.1:9/pdp/many")!))
        #expect(try policy(#", "batch": "discover""#)?.batching == .discover)
    }

    @Test(arguments: [
        (
            "[{ \(authzen), \"planTimeout\": \"0s\" }]",
            #"services.s.gatekeepers[0].planTimeout: must be positive, found "0s""#
        ),
        (
            "[{ \(authzen), \"maxPlanIds\": 0 }]",
            "services.s.gatekeepers[0].maxPlanIds: expected a positive number, found 0"
        ),
        (
            "[{ \(authzen), \"maxPlanBytes\": -1 }]",
            "services.s.gatekeepers[0].maxPlanBytes: expected a positive number, found -1"
        ),
        (
            "[{ \(authzen), \"batch\": \"evaluation\" }]",
            #"services.s.gatekeepers[0].batch: unknown value "evaluation"; expected "none" (the default), "evaluations" or "discover"; did you mean "evaluations"?"#
        ),
        (
            "[{ \(authzen), \"batchSize\": 0 }]",
            "services.s.gatekeepers[0].batchSize: expected a positive number of names, found 0"
        ),
        (
            "[{ \(authzen), \"evaluationsPath\": \"/x\" }]",
            #"services.s.gatekeepers[0].evaluationsPath: is read only with "batch": "evaluations""#
        ),
        (
            "[{ \(authzen), \"batch\": \"evaluations\", \"evaluationsPath\": \"//evil.example/x\" }]",
            #"services.s.gatekeepers[0].evaluationsPath: expected a path on the url's origin, such as "/access/v1/evaluations""#
        ),
        (
            "[{ \(opa), \"batch\": \"discover\" }]",
            #"services.s.gatekeepers[0].batch: batches use AuthZEN's Access Evaluations API; with "protocol": "opa" leave it out"#
        ),
    ])
    func eachBatchOrBoundSettingErrorNamesItsPlace(gatekeepers: String, expected: String) {
        #expect(issues(service(gatekeepers: gatekeepers)) == [expected])
    }

    @Test func aConfiguredServiceListsThroughOneAccessEvaluationsRequest() async throws {
        let server = try LoopbackServer { _, request in
            let body =
                request.path == "/pdp/batch"
                ? #"{"evaluations": [{"decision": true}, {"decision": false}, {"decision": true}]}"#
                : #"{"decision": true}"#
            return [.send(LoopbackServer.response(status: 200, body: Data(body.utf8)))]
        }
        let json = """
            { "services": { "s": {
                "loader": { "type": "memory", "resources": { "docs/a": "A", "docs/b": "B", "docs/c": "C" } },
                "gatekeepers": [{ "type": "remote", "protocol": "authzen",
                    "url": "\(server.url("/pdp/decide"))", "batch": "evaluations",
                    "evaluationsPath": "/pdp/batch" }] } } }
            """
        let services = try Assembler().assemble(
            json: Data(json.utf8), baseDirectory: FileManager.default.temporaryDirectory)
        let service = try services.service(named: "s")
        let listed = try await AccessContext.with(subject: "alice") { try await service.keys(under: "docs") }
        #expect(listed == ["docs/a", "docs/c"])
        // An endpoint that is not an `evaluation` has no search beside it, so there is no plan:
        // the folder's check, then the three names in one request.
        #expect(server.requests.map(\.path) == ["/pdp/decide", "/pdp/batch"])
    }
}
