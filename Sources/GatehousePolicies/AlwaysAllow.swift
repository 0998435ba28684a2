import GatehouseCore

/// A gatekeeper that allows every request: the explicit way to say "open", since a proxy or a
/// service with no gatekeepers denies.
public struct AlwaysAllow: AccessPolicy {
    /// The name shown in audit records, `"alwaysAllow"` unless given.
    public let name: String

    /// Creates the policy.
    public init(name: String = "alwaysAllow") {
        self.name = name
    }

    /// Allows.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        .allow
    }

    /// Allows, with no rule.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(.allow)
    }

    /// Exact: every name.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .exact(allowing: .everything)
    }
}
