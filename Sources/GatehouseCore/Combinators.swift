/// A gatekeeper that allows only when every member allows, asked in order; the first member that
/// does not allow ends the evaluation. A member that throws makes the whole `AllOf` throw, so the
/// gate denies with a failure; an empty `AllOf` throws ``EmptyCombinatorError``.
public struct AllOf: ValidatingPolicy {
    /// The members, asked in order.
    package let gatekeepers: [any AccessPolicy]
    /// The name shown in denials and audit records, `"allOf"` unless given.
    public let name: String

    /// Creates a conjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "allOf") {
        self.gatekeepers = policies
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
        guard !gatekeepers.isEmpty else { throw EmptyCombinatorError(policy: name) }
        var last = AccessExplanation(.allow)
        for policy in gatekeepers {
            last = try await policy.explain(request)
            if case .deny(let reason) = last.decision {
                return AccessExplanation(
                    .deny(reason: "\(policy.name): \(reason)"), rule: last.rule, note: last.note)
            }
        }
        return last
    }

    /// The issues of every member that can be checked ahead, each under `policies[i]`.
    public func validationIssues() async -> [ValidationIssue] {
        await membersIssues(gatekeepers)
    }
}

/// A gatekeeper that allows when at least one member allows, asked in order; the first member that
/// allows ends the evaluation, and a denial lists why each member denied. A member that throws
/// makes the whole `AnyOf` throw (a later member cannot paper over a failed one), so the gate
/// denies with a failure; an empty `AnyOf` throws ``EmptyCombinatorError``.
public struct AnyOf: ValidatingPolicy {
    /// The members, asked in order.
    package let gatekeepers: [any AccessPolicy]
    /// The name shown in denials and audit records, `"anyOf"` unless given.
    public let name: String

    /// Creates a disjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "anyOf") {
        self.gatekeepers = policies
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
        guard !gatekeepers.isEmpty else { throw EmptyCombinatorError(policy: name) }
        var reasons: [String] = []
        for policy in gatekeepers {
            let explanation = try await policy.explain(request)
            switch explanation.decision {
            case .allow:
                return explanation
            case .deny(let reason):
                reasons.append("\(policy.name): \(reason)")
            }
        }
        return AccessExplanation(.deny(reason: "no gatekeeper allowed (\(reasons.joined(separator: "; ")))"))
    }

    /// The issues of every member that can be checked ahead, each under `policies[i]`.
    public func validationIssues() async -> [ValidationIssue] {
        await membersIssues(gatekeepers)
    }
}

/// A gatekeeper that inverts its member: allows what the member denies and denies what it allows.
///
/// A member that throws makes `Not` throw too: a failure is never turned into an allow.
public struct Not: ValidatingPolicy {
    /// The inverted gatekeeper.
    package let gatekeeper: any AccessPolicy
    /// The name shown in denials and audit records, `"not(<member>)"` unless given.
    public let name: String

    /// Creates the inverse of `policy`.
    public init(_ policy: any AccessPolicy, name: String? = nil) {
        self.gatekeeper = policy
        self.name = name ?? "not(\(policy.name))"
    }

    /// Allows when the member denies; denies when it allows.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try await explain(request).decision
    }

    /// ``evaluate(_:)``'s decision with the member's rule and note: the rule that decided the
    /// member's answer is the one that decided the inverse.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        let member = try await gatekeeper.explain(request)
        switch member.decision {
        case .allow:
            return AccessExplanation(
                .deny(reason: "\(gatekeeper.name) allows, and \(name) inverts it"), rule: member.rule,
                note: member.note)
        case .deny:
            return AccessExplanation(.allow, rule: member.rule, note: member.note)
        }
    }

    /// The issues of the inverted policy, when it can be checked ahead, under `policy`.
    public func validationIssues() async -> [ValidationIssue] {
        await memberIssues(gatekeeper, at: "policy")
    }
}

/// What an ``AllOf`` or ``AnyOf`` with no members throws when asked: with no member it has no
/// decision to give, and a denial would turn into an allow under ``Not``.
public struct EmptyCombinatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the combinator asked.
    package var policy: String

    /// `allOf has no policies, so it cannot decide; give it at least one`.
    public var description: String {
        "\(policy) has no policies, so it cannot decide; give it at least one"
    }
}

/// The issues of each of `policies` that can be checked ahead, each under `policies[i]`.
private func membersIssues(_ policies: [any AccessPolicy]) async -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    for (index, policy) in policies.enumerated() {
        issues += await memberIssues(policy, at: "policies[\(index)]")
    }
    return issues
}
