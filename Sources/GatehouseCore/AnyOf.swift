/// A policy that allows when at least one member allows, asked in order; the first member that
/// allows ends the evaluation. An empty `AnyOf` denies (fails closed).
///
/// A denial lists why each member denied. A member that throws makes the whole `AnyOf` throw
/// (a later member cannot paper over a failed one), so the proxy denies with a gate failure.
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
        guard !policies.isEmpty else {
            return .deny(reason: "\(name) has no policies, so it denies (fails closed)")
        }
        var reasons: [String] = []
        reasons.reserveCapacity(policies.count)
        for policy in policies {
            switch try await policy.evaluate(request) {
            case .allow:
                return .allow
            case .deny(let reason):
                reasons.append("\(policy.name): \(reason)")
            }
        }
        return .deny(reason: "no policy allowed (\(reasons.joined(separator: "; ")))")
    }
}
