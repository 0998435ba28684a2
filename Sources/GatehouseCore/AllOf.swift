/// A policy that allows only when every member allows, asked in order; the first member that
/// does not allow ends the evaluation. An empty `AllOf` throws
/// ``EmptyCombinatorError`` when asked: it cannot decide, and a denial would become an allow under
/// ``Not``.
///
/// A member that throws makes the whole `AllOf` throw, so the gate denies with a gate failure.
public struct AllOf: AccessPolicy {
    /// The members, asked in order.
    public let policies: [any AccessPolicy]
    /// The name shown in denials and audit records, `"allOf"` unless given.
    public let name: String

    /// Creates a conjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "allOf") {
        self.policies = policies
        self.name = name
    }

    /// Creates a conjunction of the given policies.
    public init(_ policies: any AccessPolicy..., name: String = "allOf") {
        self.init(policies, name: name)
    }

    /// Allows when every member allows; otherwise denies with the first refusing member's reason.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try await explain(request).decision
    }

    /// ``evaluate(_:)``'s decision with the deciding member's rule and note: the refusing
    /// member's, or the last member's when all allow.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        guard !policies.isEmpty else { throw EmptyCombinatorError(policy: name) }
        var last = AccessExplanation(.allow)
        for policy in policies {
            last = try await policy.explain(request)
            if case .deny(let reason) = last.decision {
                return AccessExplanation(
                    .deny(reason: "\(policy.name): \(reason)"), rule: last.rule, note: last.note)
            }
        }
        return last
    }
}
