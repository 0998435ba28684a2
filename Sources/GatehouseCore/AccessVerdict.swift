/// What an ``AccessGate`` decided about one request, explained: the outcome, the gatekeeper that
/// decided, why, the deciding rule when one is known, and every gatekeeper's step in order.
public struct AccessVerdict: Sendable, Hashable, Codable {
    /// How a request, or one gatekeeper's step, ended.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Allowed: the call may proceed.
        case allowed
        /// Denied by a decision.
        case denied
        /// Denied because a gatekeeper failed (threw): the gate fails closed.
        case failed
    }

    /// One gatekeeper's answer, in the order the gate asked.
    public struct Step: Sendable, Hashable, Codable {
        /// The gatekeeper's name.
        public var gatekeeper: String
        /// Its answer.
        public var outcome: Outcome
        /// Why, for a denial or a failure; for an allow, the gatekeeper's note if any.
        public var reason: String?
        /// The rule that decided, when the gatekeeper knows it.
        public var rule: RuleReference?

        /// Creates a step.
        package init(gatekeeper: String, outcome: Outcome, reason: String? = nil, rule: RuleReference? = nil)
        {
            self.gatekeeper = gatekeeper
            self.outcome = outcome
            self.reason = reason
            self.rule = rule
        }
    }

    /// The outcome of the whole request.
    public var outcome: Outcome
    /// The deciding gatekeeper: the one that did not allow, or the last one when all allowed;
    /// `(identity)` for a request that broke ``ResourceIdentity``, `(none)` for an empty gate.
    public var gatekeeper: String
    /// Why, for a denial or a failure; for an allow, the deciding gatekeeper's note if any.
    public var reason: String?
    /// The rule that decided, when the deciding gatekeeper knows it (allows too).
    public var rule: RuleReference?
    /// Every gatekeeper asked, in order; empty for a load with no observer.
    public var steps: [Step]
    /// For a denial by a rules gatekeeper in ``AccessGate/decide(_:)``, the rules that nearly
    /// allowed the request and what failed for each, nearest first (see docs/policies.md).
    public var nearMisses: [String] = []
    /// For a denial, the deciding gatekeeper's typed cause (``AccessExplanation/cause``), such as
    /// `PhotoLibraryPolicy.Access`; `nil` for an allow, a failure, or a gatekeeper that gives
    /// none. Compared by value; not encoded.
    public var cause: (any Hashable & Sendable)?

    /// Creates a verdict.
    package init(
        outcome: Outcome, gatekeeper: String, reason: String? = nil, rule: RuleReference? = nil,
        steps: [Step] = []
    ) {
        self.outcome = outcome
        self.gatekeeper = gatekeeper
        self.reason = reason
        self.rule = rule
        self.steps = steps
    }

    /// Whether the request may proceed.
    public var isAllowed: Bool { outcome == .allowed }

    /// Whether both say the same, causes compared as values.
    public static func == (lhs: AccessVerdict, rhs: AccessVerdict) -> Bool {
        lhs.outcome == rhs.outcome && lhs.gatekeeper == rhs.gatekeeper && lhs.reason == rhs.reason
            && lhs.rule == rhs.rule && lhs.steps == rhs.steps && lhs.nearMisses == rhs.nearMisses
            && sameCause(lhs.cause, rhs.cause)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(outcome)
        hasher.combine(gatekeeper)
        hasher.combine(reason)
        hasher.combine(rule)
        hasher.combine(steps)
        hasher.combine(nearMisses)
        hasher.combine(cause.map { AnyHashable($0) })
    }

    /// The verdict as a plain decision: ``AccessDecision/allow``, or a denial with the reason.
    public var decision: AccessDecision {
        isAllowed ? .allow : .deny(reason: reason ?? "denied by \(gatekeeper)")
    }
}

extension AccessVerdict {
    private enum CodingKeys: String, CodingKey {
        case outcome, gatekeeper, reason, rule, steps, nearMisses
    }

    /// Decodes a verdict; `nearMisses` may be absent, and is left out when empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            outcome: try container.decode(Outcome.self, forKey: .outcome),
            gatekeeper: try container.decode(String.self, forKey: .gatekeeper),
            reason: try container.decodeIfPresent(String.self, forKey: .reason),
            rule: try container.decodeIfPresent(RuleReference.self, forKey: .rule),
            steps: try container.decode([Step].self, forKey: .steps))
        nearMisses = try container.decodeIfPresent([String].self, forKey: .nearMisses) ?? []
    }

    /// Encodes the verdict.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(gatekeeper, forKey: .gatekeeper)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(rule, forKey: .rule)
        try container.encode(steps, forKey: .steps)
        if !nearMisses.isEmpty { try container.encode(nearMisses, forKey: .nearMisses) }
    }
}

extension AccessVerdict: CustomStringConvertible {
    /// One line such as `allowed by rules (documents.rules:4)` or
    /// `denied by allowList: subject "bob" is not listed`.
    public var description: String {
        var text = outcome == .failed ? "failed at \(gatekeeper)" : "\(outcome.rawValue) by \(gatekeeper)"
        if let rule { text += " (\(rule))" }
        if let reason { text += ": \(reason)" }
        return text
    }
}
