/// A policy that allows when at least one member allows, asked in order; the first member that
/// allows ends the evaluation. An empty `AnyOf` throws
/// ``EmptyCombinatorError`` when asked: it cannot decide, and a denial would become an allow under
/// ``Not``.
///
/// A denial lists why each member denied. A member that throws makes the whole `AnyOf` throw
/// (a later member cannot paper over a failed one), so the gate denies with a gate failure.
public struct AnyOf: AccessPolicy {
    /// The members, asked in order.
    public let policies: [any AccessPolicy]
    /// The name shown in denials and audit records, `"anyOf"` unless given.
    public let name: String

    /// Creates a disjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "anyOf") {
        self.policies = policies
        self.name = name
    }

    /// Creates a disjunction of the given policies.
    public init(_ policies: any AccessPolicy..., name: String = "anyOf") {
        self.init(policies, name: name)
    }

    /// Allows when a member allows; otherwise denies, saying why each member denied.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try await explain(request).decision
    }

    /// ``evaluate(_:)``'s decision; an allow carries the allowing member's rule and note, a
    /// denial no rule (every member denied).
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        guard !policies.isEmpty else { throw EmptyCombinatorError(policy: name) }
        var reasons: [String] = []
        reasons.reserveCapacity(policies.count)
        for policy in policies {
            let explanation = try await policy.explain(request)
            switch explanation.decision {
            case .allow:
                return explanation
            case .deny(let reason):
                reasons.append("\(policy.name): \(reason)")
            }
        }
        return AccessExplanation(.deny(reason: "no policy allowed (\(reasons.joined(separator: "; ")))"))
    }
}
