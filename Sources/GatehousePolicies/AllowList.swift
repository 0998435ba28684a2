import GatehouseCore

/// A gatekeeper that allows a request only when its resource, its subject, or both are listed.
///
/// Each list holds patterns, exact or with `*` (any run, `/` included; see docs/policies.md). A
/// list not given is not checked; when both are given, both must match. A request without a
/// subject matches a `subjects` list only if it holds `*`. A million patterns decide about as fast
/// as ten.
///
/// ```swift
/// let gate = try AllowList(resources: ["avatars/*"], subjects: ["alice", "bob"])
/// ```
public struct AllowList: AccessPolicy {
    /// The name shown in denials and audit records, `"allowList"` unless given.
    public let name: String

    /// `nil` for a list not given.
    let resources: PatternLookup?
    let subjects: PatternLookup?
    let anonymousAllowed: Bool

    /// Creates an allow-list of resource patterns, subject patterns, or both.
    ///
    /// - Throws: ``PolicyConfigurationError`` when neither list is given, a given list is
    ///   empty (it would deny every request), or a pattern holds a forbidden character.
    public init(resources: [String]? = nil, subjects: [String]? = nil, name: String = "allowList")
        throws(PolicyConfigurationError)
    {
        if resources == nil && subjects == nil {
            throw PolicyConfigurationError(
                policy: name,
                message: "give resources, subjects or both; an allow-list with neither has nothing to check")
        }
        for (label, list) in [("resources", resources), ("subjects", subjects)] where list?.isEmpty == true {
            throw PolicyConfigurationError(
                policy: name,
                message: "\(label) is empty, so every request would be denied; leave \(label) out "
                    + "to not check it, or use AlwaysDeny to close the gate")
        }
        for (label, list) in [("resources", resources), ("subjects", subjects)] {
            for (index, pattern) in (list ?? []).enumerated() {
                if let (column, problem) = PatternCharacters.firstProblem(in: pattern[...]) {
                    throw PolicyConfigurationError(
                        policy: name, message: "\(label)[\(index)], column \(column), holds \(problem)")
                }
            }
        }
        self.name = name
        self.resources = resources.map { PatternLookup($0.map(ResourceIdentity.normalized)) }
        self.subjects = subjects.map { PatternLookup($0.map(ResourceIdentity.normalized)) }
        self.anonymousAllowed = self.subjects?.patterns.contains("*") == true
    }

    /// Allows when every given list matches; otherwise denies, naming what is not listed.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        decision(for: request)
    }

    /// ``evaluate(_:)``'s decision, with no rule (a list has no numbered rules).
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(decision(for: request))
    }

    /// Exact: when the subject is listed, the resource patterns (everything if unchecked);
    /// otherwise nothing.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        guard isListed(subject: request.subject) else { return .exact(allowing: .nothing) }
        guard let resources else { return .exact(allowing: .everything) }
        return .exact(allowing: .anyOf(resources.patterns.map(AccessPlan.Residual.matching)))
    }

    private func decision(for request: AccessRequest) -> AccessDecision {
        var problems: [String] = []
        if let resources, !resources.contains(match: request.resource) {
            problems.append("resource \"\(request.resource)\" is not in the allow-list")
        }
        if !isListed(subject: request.subject) {
            problems.append(
                request.subject.map { "subject \"\($0)\" is not in the allow-list" }
                    ?? "the request has no subject (anonymous), and only the subject pattern \"*\" admits it")
        }
        return problems.isEmpty ? .allow : .deny(reason: problems.joined(separator: "; "))
    }

    private func isListed(subject: String?) -> Bool {
        guard let subjects else { return true }
        return subject.map { subjects.contains(match: $0) } ?? anonymousAllowed
    }
}
