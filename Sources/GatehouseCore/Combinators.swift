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
        try await only(explain(batch: [request]))
    }

    /// ``explain(_:)`` for each request, each member asked once for all the requests every
    /// member before it allowed (a member that can answers them together).
    public func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
        guard !gatekeepers.isEmpty else {
            return requests.map { _ in .failure(EmptyCombinatorError(policy: name)) }
        }
        var answers = requests.map { _ in
            Result<AccessExplanation, any Error>.success(AccessExplanation(.allow))
        }
        var pending = Array(requests.indices)
        for member in gatekeepers where !pending.isEmpty {
            let results = await member.explain(batch: pending.map { requests[$0] })
            var allowed: [Int] = []
            for (index, result) in zip(pending, results) {
                answers[index] = result.map { last in
                    guard case .deny(let reason) = last.decision else { return last }
                    return AccessExplanation(
                        .deny(reason: "\(member.name): \(reason)"), rule: last.rule, note: last.note,
                        cause: last.cause)
                }
                if case .success(let last) = result, last.decision.isAllowed { allowed.append(index) }
            }
            pending = allowed
        }
        return answers
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
        try await only(explain(batch: [request]))
    }

    /// ``explain(_:)`` for each request, each member asked once for all the requests every
    /// member before it denied (a member that can answers them together).
    public func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
        guard !gatekeepers.isEmpty else {
            return requests.map { _ in .failure(EmptyCombinatorError(policy: name)) }
        }
        var answers: [Result<AccessExplanation, any Error>?] = requests.map { _ in nil }
        var reasons = requests.map { _ in [String]() }
        var causes: [(any Hashable & Sendable)?] = requests.map { _ in nil }
        var pending = Array(requests.indices)
        for member in gatekeepers where !pending.isEmpty {
            let results = await member.explain(batch: pending.map { requests[$0] })
            var denied: [Int] = []
            for (index, result) in zip(pending, results) {
                switch result {
                case .success(let explanation):
                    switch explanation.decision {
                    case .allow:
                        answers[index] = result
                    case .deny(let reason):
                        reasons[index].append("\(member.name): \(reason)")
                        causes[index] = causes[index] ?? explanation.cause
                        denied.append(index)
                    }
                case .failure:
                    answers[index] = result
                }
            }
            pending = denied
        }
        return requests.indices.map { index in
            answers[index]
                ?? .success(
                    AccessExplanation(
                        .deny(reason: "no gatekeeper allowed (\(reasons[index].joined(separator: "; ")))"),
                        cause: causes[index]))
        }
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
        try await only(explain(batch: [request]))
    }

    /// ``explain(_:)`` for each request, the member asked once for them all.
    public func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
        await gatekeeper.explain(batch: requests).map { result in
            result.map { member in
                switch member.decision {
                case .allow:
                    AccessExplanation(
                        .deny(reason: "\(gatekeeper.name) allows, and \(name) inverts it"), rule: member.rule,
                        note: member.note)
                case .deny:
                    AccessExplanation(.allow, rule: member.rule, note: member.note)
                }
            }
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

/// The one answer of a batch of one.
private func only(_ answers: [Result<AccessExplanation, any Error>]) throws -> AccessExplanation {
    guard let answer = answers.first else { throw CancellationError() }
    return try answer.get()
}

private func membersIssues(_ members: [NamedGatekeeper]) async -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    for (index, member) in members.enumerated() {
        issues += await member.policy.validationIssues().map { $0.within("gatekeepers[\(index)]") }
    }
    return issues
}
