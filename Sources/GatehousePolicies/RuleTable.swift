import GatehouseCore

/// Where a rule is filed: its resource pattern's id and its subject key, which is a subject
/// pattern's id (0 or more) or, for `@group`, `-1 - group id`.
struct RuleKey: Hashable, Sendable {
    var resource: Int32
    var subject: Int32

    /// The subject key of the group with id `group`.
    static func subject(group: Int32) -> Int32 { -1 - group }

    /// Both ids in one word, the table's key.
    var packed: UInt64 {
        UInt64(UInt32(bitPattern: resource)) << 32 | UInt64(UInt32(bitPattern: subject))
    }
}

/// One rule as a decision needs it once its resource and subject are known to match.
struct IndexedRule: Sendable {
    var line: Int32
    var effect: RulesFile.Effect
    /// The action pattern's id.
    var action: Int32
    /// The rule's conditions in ``RuleTable``, or -1 when it has none.
    var conditions: Int32
    /// The next rule filed under the same key, or -1.
    var next: Int32
}

/// The rules of a file filed by ``RuleKey``: a decision looks up each matching (resource,
/// subject) pair once and walks the rules filed there.
struct RuleTable: Sendable {
    private var heads = HashedIDs()
    private var rules: [IndexedRule] = []
    private var conditionLists: [[RuleCondition]] = []

    /// Makes room for `count` rules in all.
    mutating func reserveCapacity(_ count: Int) {
        heads.reserveCapacity(count)
        rules.reserveCapacity(count)
    }

    /// Files a rule under `key`.
    mutating func add(
        _ key: RuleKey, line: Int32, effect: RulesFile.Effect, action: Int32, conditions: [RuleCondition]
    ) {
        var conditionIndex: Int32 = -1
        if !conditions.isEmpty {
            conditionIndex = Int32(conditionLists.count)
            conditionLists.append(conditions)
        }
        let index = Int32(rules.count)
        rules.append(
            IndexedRule(
                line: line, effect: effect, action: action, conditions: conditionIndex,
                next: heads[key.packed] ?? -1))
        heads[key.packed] = index
    }

    /// The index of the first rule filed under `key` (the others follow through
    /// ``IndexedRule/next``), or -1.
    func first(_ key: RuleKey) -> Int32 {
        heads[key.packed] ?? -1
    }

    /// The rule at `index`.
    subscript(index: Int32) -> IndexedRule {
        rules[Int(index)]
    }

    /// Whether every condition of `rule` holds for `request`.
    func conditionsHold(_ rule: IndexedRule, _ request: AccessRequest) -> Bool {
        rule.conditions < 0 || conditionLists[Int(rule.conditions)].allSatisfy { $0.holds(in: request) }
    }
}
