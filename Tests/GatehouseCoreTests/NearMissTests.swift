import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// The gate asks a gatekeeper for its near misses ("why not") only when it explains a denial in
/// full (`decide`), never on a load, `authorize` or `permitted`; the mask reaches them.
@Suite("Near misses")
struct NearMissTests {
    /// Denies everything; its near misses quote the `device` attribute, and it counts the asks.
    struct WhyNotPolicy: AccessPolicy {
        let name = "rules"
        let asks = Counter()
        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            .deny(reason: "no rule in rules allows")
        }
        func nearMisses(_ request: AccessRequest) async throws -> [String] {
            asks.increment()
            return [
                "rules:1: the condition device=managed is not met (device is \(request.attributes["device"] ?? "-"))"
            ]
        }
    }

    static let request = AccessRequest(
        subject: "erin", action: "read", resource: "docs/a", attributes: ["device": "unmanaged-7"])

    @Test func decideGivesTheDenyingGatekeepersNearMisses() async throws {
        let policy = WhyNotPolicy()
        let verdict = try await AccessGate(gatekeepers: [policy]).decide(Self.request)
        #expect(
            verdict.nearMisses == ["rules:1: the condition device=managed is not met (device is unmanaged-7)"]
        )
        #expect(verdict.reason == "no rule in rules allows")
        #expect(policy.asks.value == 1)
    }

    @Test func anAllowHasNoNearMissesAndAsksForNone() async throws {
        let policy = WhyNotPolicy()
        let verdict = try await AccessGate(gatekeepers: [Not(policy)]).decide(Self.request)
        #expect(verdict.isAllowed)
        #expect(verdict.nearMisses.isEmpty)
        #expect(policy.asks.value == 0)
    }

    @Test func loadsAuthorizeAndPermittedNeverComputeNearMisses() async throws {
        let policy = WhyNotPolicy()
        let gate = AccessGate(gatekeepers: [policy], observer: RecordingObserver())
        let proxy = SpyLoader().guarded(by: policy)
        let denied = await #expect(throws: AccessDenied.self) { try await proxy.load("docs/a") }
        #expect(denied?.reason == "no rule in rules allows")
        let refused = await #expect(throws: AccessDenied.self) { try await gate.authorize(Self.request) }
        #expect(refused?.description.contains("device=managed") == false)
        #expect(try await gate.permitted([Self.request]).isEmpty)
        #expect(policy.asks.value == 0)
    }

    @Test func maskedValuesNeverAppearInNearMisses() async throws {
        let gate = AccessGate(gatekeepers: [WhyNotPolicy()], mask: ["device"])
        let verdict = try await gate.decide(Self.request)
        #expect(
            verdict.nearMisses == ["rules:1: the condition device=managed is not met (device is (masked))"])
        let json = String(decoding: try JSONEncoder().encode(verdict), as: UTF8.self)
        #expect(!json.contains("unmanaged-7"), "\(json)")
    }

    @Test func nearMissesAreInTheJSONOnlyWhenThereAreAny() async throws {
        let denied = try await AccessGate(gatekeepers: [WhyNotPolicy()]).decide(Self.request)
        let json = String(decoding: try JSONEncoder().encode(denied), as: UTF8.self)
        #expect(json.contains(#""nearMisses":["#), "\(json)")
        #expect(try JSONDecoder().decode(AccessVerdict.self, from: Data(json.utf8)) == denied)
        let allowed = try await AccessGate(gatekeepers: [SwitchPolicy("allow")]).decide(Self.request)
        let plain = String(decoding: try JSONEncoder().encode(allowed), as: UTF8.self)
        #expect(!plain.contains("nearMisses"), "\(plain)")
        #expect(try JSONDecoder().decode(AccessVerdict.self, from: Data(plain.utf8)) == allowed)
    }
}
