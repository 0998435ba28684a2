/// A gatekeeper that allows when every member allows, asked in order until one does not. A member
/// that throws, or no member at all (``EmptyCombinatorError``), makes it throw (fail closed).
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

    /// ``evaluate(_:)``'s decision with the refusing member's rule and note, or the last one's.
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

/// A gatekeeper that allows when some member allows, asked in order until one does. A member that
/// throws, or no member at all (``EmptyCombinatorError``), makes it throw: a later member cannot
/// outvote a failed one.
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

    /// ``evaluate(_:)``'s decision with the allowing member's rule and note.
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

/// A gatekeeper that allows what its member denies and denies what it allows. A member that throws
/// makes `Not` throw too: a failure never becomes an allow.
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

    /// ``evaluate(_:)``'s decision with the member's rule and note.
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

/// What an ``AllOf`` or ``AnyOf`` with no members throws when asked (a denial would turn into an
/// allow under ``Not``).
public struct EmptyCombinatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the combinator asked.
    package var policy: String

    /// Such as `allOf has no policies, so it cannot decide; give it at least one`.
    public var description: String {
        "\(policy) has no policies, so it cannot decide; give it at least one"
    }
}

private func membersIssues(_ policies: [any AccessPolicy]) async -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    for (index, policy) in policies.enumerated() {
        issues += await memberIssues(policy, at: "policies[\(index)]")
    }
    return issues
}
