import Foundation

/// One audit record: a decision the proxy made for one call.
public struct AccessRecord: Sendable, Hashable, Codable {
    /// The request decided.
    public var request: AccessRequest
    /// The outcome: ``AccessDecision/allow`` or a denial with its reason.
    public var decision: AccessDecision
    /// The deciding gate: the one that did not allow, or the last gate when all allowed.
    public var gate: String
    /// When the decision was made, by the proxy's clock.
    public var instant: Date
    /// Whether the deciding gate failed (threw) rather than decided.
    public var isGateFailure: Bool
    /// Whether the decision was only observed and not enforced (a shadow, dry-run gate).
    public var isShadow: Bool

    /// Creates a record.
    public init(
        request: AccessRequest,
        decision: AccessDecision,
        gate: String,
        instant: Date,
        isGateFailure: Bool = false,
        isShadow: Bool = false
    ) {
        self.request = request
        self.decision = decision
        self.gate = gate
        self.instant = instant
        self.isGateFailure = isGateFailure
        self.isShadow = isShadow
    }
}
