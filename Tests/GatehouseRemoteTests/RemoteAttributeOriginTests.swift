import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// What a remote decision service is told of each attribute's origin, once the gate has merged the
/// resource's in: AuthZEN 1.0 keeps them apart (the resource's `properties`, the caller's
/// `context`); OPA's input keeps `attributes` as every gatekeeper sees them, with `origins` beside.
@Suite("Remote requests tell the resource's attributes from the caller's")
struct RemoteAttributeOriginTests {
    /// `docs/plan.md` is alice's; the caller claims it is mallory's and says its device.
    static func ask(_ policy: RemotePolicy) async throws {
        let owners = ResourceAttributes<String>(["owner"]) { _ in ["owner": "alice"] }
        let gate = AccessGate(gatekeepers: [policy], resourceAttributes: owners)
        _ = try await gate.decide(
            AccessRequest(
                subject: "bob", resource: "docs/plan.md",
                attributes: ["owner": "mallory", "device": "managed"]))
    }

    @Test func authZENPutsTheResourcesAttributesInItsPropertiesAndTheCallersInTheContext() async throws {
        let server = try LoopbackServer(json: #"{"decision": true}"#)
        try await Self.ask(try RemotePolicy(url: server.url("/access/v1/evaluation"), protocol: .authzen))
        #expect(
            server.requests.first?.bodyText
                == #"{"action":{"name":"read"},"context":{"device":"managed"},"resource":{"id":"docs/plan.md","#
                + #""properties":{"owner":"alice"},"type":"resource"},"subject":{"id":"bob","type":"user"}}"#)
    }

    @Test func opaInputGivesTheAttributesTheGatekeepersSeeAndTheirOrigins() async throws {
        let server = try LoopbackServer(json: #"{"result": true}"#)
        try await Self.ask(try RemotePolicy(url: server.url(), protocol: .opa))
        #expect(
            server.requests.first?.bodyText
                == #"{"input":{"action":"read","attributes":{"device":"managed","owner":"alice"},"#
                + #""origins":{"device":"caller","owner":"resource"},"resource":"docs/plan.md","subject":"bob"}}"#
        )
    }
}
