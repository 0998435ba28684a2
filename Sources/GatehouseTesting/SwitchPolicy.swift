import GatehouseCore

/// A gatekeeper that decides what the test sets, and can be switched between calls (granting and
/// revoking access, as a user does in Settings); it counts how often it was asked and keeps every
/// request.
///
/// Left unswitched it is a fixed gatekeeper: `SwitchPolicy("owner", .deny(reason: "not yours"))`
/// denies every request, and `SwitchPolicy()` allows every request.
public final class SwitchPolicy: AccessPolicy {
    private struct State {
        var decision: AccessDecision
        var requests: [AccessRequest] = []
    }

    /// The name decisions are reported under.
    public let name: String
    private let state: LockedState<State>

    /// Creates the gatekeeper named `name`, deciding `decision` until switched.
    public init(_ name: String = "switch", _ decision: AccessDecision = .allow) {
        self.name = name
        self.state = LockedState(State(decision: decision))
    }

    /// Creates a gatekeeper named `revocable` that allows if `allowed`, else denies as revoked.
    public convenience init(allowed: Bool) {
        self.init("revocable", allowed ? .allow : Self.revoked)
    }

    /// The decision of a revoked gatekeeper: a denial that says access is revoked.
    public static let revoked = AccessDecision.deny(reason: "access is revoked")

    /// Makes later calls decide `decision`.
    public func set(_ decision: AccessDecision) { state.withLock { $0.decision = decision } }

    /// Makes later calls allow.
    public func grant() { set(.allow) }

    /// Makes later calls deny, saying that access is revoked.
    public func revoke() { set(Self.revoked) }

    /// How many times the gatekeeper was asked.
    public var evaluations: Int { state.withLock { $0.requests.count } }

    /// Every request the gatekeeper was asked about, in order.
    public var seen: [AccessRequest] { state.withLock { $0.requests } }

    /// Records `request` and returns the current decision.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        state.withLock { state in
            state.requests.append(request)
            return state.decision
        }
    }
}
