/// A policy that inverts its member: allows what the member denies and denies what it allows.
///
/// A member that throws makes `Not` throw too: a failure is never turned into an allow.
public struct Not: AccessPolicy {
    /// The inverted policy.
    public let policy: any AccessPolicy
    /// The name shown in denials and audit records, `"not(<member>)"` unless given.
    public let name: String

    /// Creates the inverse of `policy`.
    public init(_ policy: any AccessPolicy, name: String? = nil) {
        self.policy = policy
        self.name = name ?? "not(\(policy.name))"
    }

    /// Allows when the member denies; denies when it allows.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try await explain(request).decision
    }

    /// ``evaluate(_:)``'s decision with the member's rule and note: the rule that decided the
    /// member's answer is the one that decided the inverse.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        let member = try await policy.explain(request)
        switch member.decision {
        case .allow:
            return AccessExplanation(
                .deny(reason: "\(policy.name) allows, and \(name) inverts it"), rule: member.rule,
                note: member.note)
        case .deny:
            return AccessExplanation(.allow, rule: member.rule, note: member.note)
        }
    }
}
