/// A policy that inverts its member: allows what the member denies and denies what it allows.
///
/// A member that throws makes `Not` throw too: a failure is never turned into an allow.
public struct Not: AccessPolicy, SynchronousAccessPolicy {
    /// The inverted policy.
    public let policy: any AccessPolicy
    /// The name shown in denials and audit records, `"not(<member>)"` unless given.
    public let name: String
    /// The member when it decides synchronously (then so does this policy).
    private let synchronous: (any SynchronousAccessPolicy)?

    /// Creates the inverse of `policy`.
    public init(_ policy: any AccessPolicy, name: String? = nil) {
        self.policy = policy
        self.name = name ?? "not(\(policy.name))"
        self.synchronous = synchronousMembers([policy])?.first
    }

    /// Allows when the member denies; denies when it allows.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        if let synchronous { return invert(try synchronous.decide(request)) }
        return invert(try await policy.evaluate(request))
    }

    /// Whether the member decides synchronously.
    package var decidesSynchronously: Bool { synchronous != nil }

    /// The decision of `evaluate(_:)` when the member decides synchronously; the proxy's
    /// synchronous path.
    package func decide(_ request: AccessRequest) throws -> AccessDecision {
        guard let synchronous else { throw SynchronousDecisionUnavailable(policy: name) }
        return invert(try synchronous.decide(request))
    }

    private func invert(_ decision: AccessDecision) -> AccessDecision {
        switch decision {
        case .allow:
            .deny(reason: "\(policy.name) allows, and \(name) inverts it")
        case .deny:
            .allow
        }
    }
}
