/// A gatekeeper's decision with where it came from: what ``AccessPolicy/explain(_:)`` returns.
public struct AccessExplanation: Sendable, Hashable {
    /// The decision, the same as ``AccessPolicy/evaluate(_:)`` gives.
    public var decision: AccessDecision
    /// The rule that decided, when the gatekeeper has numbered rules (a rules file's line).
    public var rule: RuleReference?
    /// What a reader must know besides the rule and the reason, such as "made by the last good
    /// version".
    public var note: String?

    /// Creates an explanation.
    public init(_ decision: AccessDecision, rule: RuleReference? = nil, note: String? = nil) {
        self.decision = decision
        self.rule = rule
        self.note = note
    }
}
