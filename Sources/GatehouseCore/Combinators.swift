/// A gatekeeper that allows when every member allows, asked in order until one does not. A member
/// that throws, or no member at all (``EmptyCombinatorError``), makes it throw (fail closed).
/// It forwards every capability of ``AccessPolicy`` to its members.
public struct AllOf: AccessPolicy {
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

    /// The members' parts joined as ``evaluate(_:)`` joins their decisions.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .allOf(try await AccessPlan.parts(of: gatekeepers, for: request))
    }

    /// The near misses of the member that refused, the one whose denial this is.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        for policy in gatekeepers {
            if try await !policy.evaluate(request).isAllowed { return try await policy.nearMisses(request) }
        }
        return []
    }

    /// The issues of every member, each under `gatekeepers[i]`.
    public func validationIssues() async -> [ValidationIssue] {
        await membersIssues(gatekeepers)
    }
}

/// A gatekeeper that allows when some member allows, asked in order until one does. A member that
/// throws, or no member at all (``EmptyCombinatorError``), makes it throw: a later member cannot
/// outvote a failed one. It forwards every capability of ``AccessPolicy`` to its members.
public struct AnyOf: AccessPolicy {
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

    /// The members' parts joined as ``evaluate(_:)`` joins their decisions.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .anyOf(try await AccessPlan.parts(of: gatekeepers, for: request))
    }

    /// Every member denied: the near misses of each, in order.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        var lines: [String] = []
        for policy in gatekeepers {
            lines += (try? await policy.nearMisses(request)) ?? []
        }
        return lines
    }

    /// The issues of every member, each under `gatekeepers[i]`.
    public func validationIssues() async -> [ValidationIssue] {
        await membersIssues(gatekeepers)
    }
}

/// A gatekeeper that allows what its member denies and denies what it allows. A member that throws
/// makes `Not` throw too: a failure never becomes an allow. It forwards every capability of
/// ``AccessPolicy`` to its member.
public struct Not: AccessPolicy {
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

    /// The member's part inverted; where the member fails, so does `Not`.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        try await AccessPlan.part(of: gatekeeper, for: request).inverted
    }

    /// None: `Not` denies where its member allows, so no rule of the member nearly allowed; the
    /// verdict's rule names the member's allowing one.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        []
    }

    /// The issues of the inverted gatekeeper, under `gatekeeper`.
    public func validationIssues() async -> [ValidationIssue] {
        await gatekeeper.validationIssues().map { $0.within("gatekeeper") }
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
        issues += await policy.validationIssues().map { $0.within("gatekeepers[\(index)]") }
    }
    return issues
}
