/// A policy that allows only when every member allows, asked in order; the first member that
/// does not allow ends the evaluation. An empty `AllOf` denies (fails closed).
///
/// A member that throws makes the whole `AllOf` throw, so the proxy denies with a gate failure.
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
        guard !policies.isEmpty else {
            return .deny(reason: "\(name) has no policies, so it denies (fails closed)")
        }
        for policy in policies {
            if case .deny(let reason) = try await policy.evaluate(request) {
                return .deny(reason: "\(policy.name): \(reason)")
            }
        }
        return .allow
    }
}
