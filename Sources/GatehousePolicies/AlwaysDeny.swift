import GatehouseCore

/// A gatekeeper that denies every request with a fixed reason: a kill switch, or a placeholder
/// for a feature that must stay closed.
public struct AlwaysDeny: AccessPolicy {
    /// The reason given in every denial.
    public let reason: String
    /// The name shown in denials and audit records, `"alwaysDeny"` unless given.
    public let name: String

    /// Creates the policy with the reason every denial will carry.
    public init(reason: String = "access is closed", name: String = "alwaysDeny") {
        self.reason = reason
        self.name = name
    }

    /// Denies with `reason`.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        .deny(reason: reason)
    }

    /// Denies with `reason`, with no rule.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(.deny(reason: reason))
    }

    /// Exact: no name.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .exact(allowing: .nothing)
    }
}
