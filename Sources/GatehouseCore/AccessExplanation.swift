/// A gatekeeper's decision with where it came from: what ``AccessPolicy/explain(_:)`` returns.
public struct AccessExplanation: Sendable, Hashable {
    /// The decision, the same as ``AccessPolicy/evaluate(_:)`` gives.
    public var decision: AccessDecision
    /// The rule that decided, when the gatekeeper has numbered rules (a rules file's line).
    public var rule: RuleReference?
    /// What a reader must know besides the rule and the reason, such as "made by the last good
    /// version".
    public var note: String?
    /// For a denial, a typed cause an app can switch on (`PhotoLibraryPolicy`'s is its
    /// `Access`), carried to ``AccessVerdict/cause`` and ``AccessDenied/cause``; never shown.
    public var cause: (any Hashable & Sendable)?

    /// Creates an explanation.
    public init(
        _ decision: AccessDecision, rule: RuleReference? = nil, note: String? = nil,
        cause: (any Hashable & Sendable)? = nil
    ) {
        self.decision = decision
        self.rule = rule
        self.note = note
        self.cause = cause
    }

    /// Whether both say the same, causes compared as values.
    public static func == (lhs: AccessExplanation, rhs: AccessExplanation) -> Bool {
        lhs.decision == rhs.decision && lhs.rule == rhs.rule && lhs.note == rhs.note
            && sameCause(lhs.cause, rhs.cause)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(decision)
        hasher.combine(rule)
        hasher.combine(note)
        hasher.combine(cause.map { AnyHashable($0) })
    }
}

/// Whether two typed causes are the same value.
func sameCause(_ lhs: (any Hashable & Sendable)?, _ rhs: (any Hashable & Sendable)?) -> Bool {
    lhs.map { AnyHashable($0) } == rhs.map { AnyHashable($0) }
}
