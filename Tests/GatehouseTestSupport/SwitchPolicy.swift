import Foundation
import GatehouseCore

/// A policy that decides what the test sets, and can be switched between calls (granting and
/// revoking access); it counts how often it was asked and keeps every request.
public final class SwitchPolicy: AccessPolicy, @unchecked Sendable {
    /// The name decisions are reported under.
    public let name: String
    private let lock = NSLock()
    private var decision: AccessDecision
    private var requests: [AccessRequest] = []

    /// Creates the policy named `name`, deciding `decision` until switched.
    public init(_ name: String = "switch", _ decision: AccessDecision = .allow) {
        self.name = name
        self.decision = decision
    }

    /// Creates a policy named `revocable` that allows if `allowed`, else denies as revoked.
    public convenience init(allowed: Bool) {
        self.init("revocable", allowed ? .allow : Self.revoked)
    }

    /// The decision of a revoked policy.
    public static let revoked = AccessDecision.deny(reason: "access is revoked")

    /// Makes later calls decide `decision`.
    public func set(_ decision: AccessDecision) { lock.withLock { self.decision = decision } }

    /// Makes later calls allow.
    public func grant() { set(.allow) }

    /// Makes later calls deny, saying that access is revoked.
    public func revoke() { set(Self.revoked) }

    /// How many times the policy was asked.
    public var evaluations: Int { lock.withLock { requests.count } }

    /// Every request the policy was asked about, in order.
    public var seen: [AccessRequest] { lock.withLock { requests } }

    /// Records `request` and returns the current decision.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        lock.withLock {
            requests.append(request)
            return decision
        }
    }
}
