/// A policy that allows only when every member allows, asked in order; the first member that
/// does not allow ends the evaluation. An empty `AllOf` throws
/// ``EmptyCombinatorError`` when asked: it cannot decide, and a denial would become an allow under
/// ``Not``.
///
/// A member that throws makes the whole `AllOf` throw, so the proxy denies with a gate failure.
public struct AllOf: AccessPolicy, SynchronousAccessPolicy {
    /// The members, asked in order.
    public let policies: [any AccessPolicy]
    /// The name shown in denials and audit records, `"allOf"` unless given.
    public let name: String
    /// The members when all of them decide synchronously (then so does this policy).
    private let synchronous: [any SynchronousAccessPolicy]?

    /// Creates a conjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "allOf") {
        self.policies = policies
        self.name = name
        self.synchronous = synchronousMembers(policies)
    }

    /// Creates a conjunction of the given policies.
    public init(_ policies: any AccessPolicy..., name: String = "allOf") {
        self.init(policies, name: name)
    }

    /// Allows when every member allows; otherwise denies with the first refusing member's reason.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        if synchronous != nil { return try decide(request) }
        guard !policies.isEmpty else { throw EmptyCombinatorError(policy: name) }
        for policy in policies {
            if case .deny(let reason) = try await policy.evaluate(request) {
                return .deny(reason: "\(policy.name): \(reason)")
            }
        }
        return .allow
    }

    /// Whether every member decides synchronously.
    package var decidesSynchronously: Bool { synchronous != nil }

    /// The decision of `evaluate(_:)` when every member decides synchronously; the proxy's
    /// synchronous path.
    package func decide(_ request: AccessRequest) throws -> AccessDecision {
        guard let synchronous else { throw SynchronousDecisionUnavailable(policy: name) }
        guard !synchronous.isEmpty else { throw EmptyCombinatorError(policy: name) }
        for policy in synchronous {
            if case .deny(let reason) = try policy.decide(request) {
                return .deny(reason: "\(policy.name): \(reason)")
            }
        }
        return .allow
    }
}
