/// A policy that allows when at least one member allows, asked in order; the first member that
/// allows ends the evaluation. An empty `AnyOf` throws
/// ``EmptyCombinatorError`` when asked: it cannot decide, and a denial would become an allow under
/// ``Not``.
///
/// A denial lists why each member denied. A member that throws makes the whole `AnyOf` throw
/// (a later member cannot paper over a failed one), so the proxy denies with a gate failure.
public struct AnyOf: AccessPolicy, SynchronousAccessPolicy {
    /// The members, asked in order.
    public let policies: [any AccessPolicy]
    /// The name shown in denials and audit records, `"anyOf"` unless given.
    public let name: String
    /// The members when all of them decide synchronously (then so does this policy).
    private let synchronous: [any SynchronousAccessPolicy]?

    /// Creates a disjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "anyOf") {
        self.policies = policies
        self.name = name
        self.synchronous = synchronousMembers(policies)
    }

    /// Creates a disjunction of the given policies.
    public init(_ policies: any AccessPolicy..., name: String = "anyOf") {
        self.init(policies, name: name)
    }

    /// Allows when a member allows; otherwise denies, saying why each member denied.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        if synchronous != nil { return try decide(request) }
        guard !policies.isEmpty else { throw EmptyCombinatorError(policy: name) }
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
        return Self.denial(reasons)
    }

    /// Whether every member decides synchronously.
    package var decidesSynchronously: Bool { synchronous != nil }

    /// The decision of `evaluate(_:)` when every member decides synchronously; the proxy's
    /// synchronous path.
    package func decide(_ request: AccessRequest) throws -> AccessDecision {
        guard let synchronous else { throw SynchronousDecisionUnavailable(policy: name) }
        guard !synchronous.isEmpty else { throw EmptyCombinatorError(policy: name) }
        var reasons: [String] = []
        reasons.reserveCapacity(synchronous.count)
        for policy in synchronous {
            switch try policy.decide(request) {
            case .allow:
                return .allow
            case .deny(let reason):
                reasons.append("\(policy.name): \(reason)")
            }
        }
        return Self.denial(reasons)
    }

    private static func denial(_ reasons: [String]) -> AccessDecision {
        .deny(reason: "no policy allowed (\(reasons.joined(separator: "; ")))")
    }
}
