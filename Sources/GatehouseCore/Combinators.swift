/// A gatekeeper that allows when every member allows, asked in order until one does not. A member
/// that throws, or no member at all (``EmptyCombinatorError``), makes it throw (fail closed).
/// It forwards every capability of ``AccessPolicy`` to its members.
public struct AllOf: AccessPolicy {
    /// The members, asked in order, each shown by its name.
    package let gatekeepers: [NamedGatekeeper]
    /// The name shown in denials and audit records, `"allOf"` unless given.
    public let name: String

    /// Creates a conjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "allOf") {
        self.init(named: policies.map { NamedGatekeeper($0) }, name: name)
    }

    /// Creates a conjunction of members shown by the names given with them (a configuration's).
    package init(named members: [NamedGatekeeper], name: String = "allOf") {
        self.gatekeepers = members
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

    /// ``evaluate(_:)``'s decision with the refusing member's rule, note and cause, or the last
    /// one's.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        guard !gatekeepers.isEmpty else { throw EmptyCombinatorError(policy: name) }
        var last = AccessExplanation(.allow)
        for member in gatekeepers {
            last = try await member.policy.explain(request)
            if case .deny(let reason) = last.decision {
                return AccessExplanation(
                    .deny(reason: "\(member.name): \(reason)"), rule: last.rule, note: last.note,
                    cause: last.cause)
            }
        }
        return last
    }

    /// The members' parts joined as ``evaluate(_:)`` joins their decisions.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .allOf(try await gatekeepers.plans(request))
    }

    /// The near misses of the member that refused, the one whose denial this is.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        for member in gatekeepers {
            if try await !member.policy.evaluate(request).isAllowed {
                return try await member.policy.nearMisses(request)
            }
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
    /// The members, asked in order, each shown by its name.
    package let gatekeepers: [NamedGatekeeper]
    /// The name shown in denials and audit records, `"anyOf"` unless given.
    public let name: String

    /// Creates a disjunction of `policies`.
    public init(_ policies: [any AccessPolicy], name: String = "anyOf") {
        self.init(named: policies.map { NamedGatekeeper($0) }, name: name)
    }

    /// Creates a disjunction of members shown by the names given with them (a configuration's).
    package init(named members: [NamedGatekeeper], name: String = "anyOf") {
        self.gatekeepers = members
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

    /// ``evaluate(_:)``'s decision with the allowing member's rule and note; a denial carries
    /// the first typed cause a member gave.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        guard !gatekeepers.isEmpty else { throw EmptyCombinatorError(policy: name) }
        var reasons: [String] = []
        var cause: (any Hashable & Sendable)?
        for member in gatekeepers {
            let explanation = try await member.policy.explain(request)
            switch explanation.decision {
            case .allow:
                return explanation
            case .deny(let reason):
                reasons.append("\(member.name): \(reason)")
                cause = cause ?? explanation.cause
            }
        }
        return AccessExplanation(
            .deny(reason: "no gatekeeper allowed (\(reasons.joined(separator: "; ")))"), cause: cause)
    }

    /// The members' parts joined as ``evaluate(_:)`` joins their decisions.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .anyOf(try await gatekeepers.plans(request))
    }

    /// Every member denied: the near misses of each, in order.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        var lines: [String] = []
        for member in gatekeepers {
            lines += (try? await member.policy.nearMisses(request)) ?? []
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
    /// The inverted gatekeeper, shown by its name.
    package let gatekeeper: NamedGatekeeper
    /// The name shown in denials and audit records, `"not(<member>)"` unless given.
    public let name: String

    /// Creates the inverse of `policy`.
    public init(_ policy: any AccessPolicy, name: String? = nil) {
        self.init(named: NamedGatekeeper(policy), name: name)
    }

    /// Creates the inverse of a member shown by the name given with it (a configuration's).
    package init(named member: NamedGatekeeper, name: String? = nil) {
        self.gatekeeper = member
        self.name = name ?? "not(\(member.name))"
    }

    /// Allows when the member denies; denies when it allows.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try await explain(request).decision
    }

    /// ``evaluate(_:)``'s decision with the member's rule and note.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        let member = try await gatekeeper.policy.explain(request)
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
        try await gatekeeper.plan(request).inverted
    }

    /// None: `Not` denies where its member allows, so no rule of the member nearly allowed; the
    /// verdict's rule names the member's allowing one.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        []
    }

    /// The issues of the inverted gatekeeper, under `gatekeeper`.
    public func validationIssues() async -> [ValidationIssue] {
        await gatekeeper.policy.validationIssues().map { $0.within("gatekeeper") }
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

private func membersIssues(_ members: [NamedGatekeeper]) async -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    for (index, member) in members.enumerated() {
        issues += await member.policy.validationIssues().map { $0.within("gatekeepers[\(index)]") }
    }
    return issues
}
