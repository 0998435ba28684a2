import GatehouseCore

/// Where a rule is filed: its resource pattern's id and its subject key, which is a subject
/// pattern's id (0 or more) or, for `@group`, `-1 - group id`.
struct RuleKey: Hashable, Sendable {
    var resource: Int32
    var subject: Int32

    /// The subject key of the group with id `group`.
    static func subject(group: Int32) -> Int32 { -1 - group }

    /// Both ids in one word, the key of the table of runs.
    var packed: UInt64 {
        UInt64(UInt32(bitPattern: resource)) << 32 | UInt64(UInt32(bitPattern: subject))
    }
}

/// One rule as a decision needs it: where it is filed, and what is checked once its resource
/// and subject match.
struct IndexedRule: Sendable {
    var key: RuleKey
    var line: Int32
    var effect: RulesFile.Effect
    /// The action pattern's id.
    var action: Int32
    /// The rule's conditions in ``RuleTable``, or -1 when it has none.
    var conditions: Int32
}

/// The rules of a file, filed by resource pattern: a decision visits the rules of each resource
/// pattern that matches, and no other.
///
/// The rules of one resource pattern sit side by side. Most resource patterns have a few rules,
/// and a decision reads them all (one place in memory) and keeps those whose subject key the
/// request has. A resource pattern with more than ``scanLimit`` rules (`allow alice read
/// shared/*` for a thousand subjects) has its rules ordered by subject key, and a table finds
/// the run of each (resource, subject) pair, so a decision there looks up each of the request's
/// subject keys once instead of reading every rule. Either way a decision does not slow down
/// with the number of rules.
struct RuleTable: Sendable {
    /// The most rules a resource pattern may have for a decision to read them all.
    static let scanLimit = 8

    /// Ordered by resource pattern id; a resource pattern's rules are ordered by subject key when
    /// they are more than ``scanLimit``.
    private let rules: [IndexedRule]
    /// The rules of resource pattern `r` are `rules[starts[r]..<starts[r + 1]]`.
    private let starts: [Int32]
    /// For a resource pattern with more than ``scanLimit`` rules, the first rule of each subject
    /// key's run, by ``RuleKey/packed``.
    private let runs: HashedIDs<UInt64>
    private let conditionLists: [[RuleCondition]]

    /// The rules of a file as its lines are read, before they are filed.
    struct Builder {
        private var rules: [IndexedRule] = []
        private var conditionLists: [[RuleCondition]] = []

        /// Makes room for `count` rules in all.
        mutating func reserveCapacity(_ count: Int) {
            rules.reserveCapacity(count)
        }

        /// Adds a rule filed under `key`.
        mutating func add(
            _ key: RuleKey, line: Int32, effect: RulesFile.Effect, action: Int32, conditions: [RuleCondition]
        ) {
            var conditionIndex: Int32 = -1
            if !conditions.isEmpty {
                conditionIndex = Int32(conditionLists.count)
                conditionLists.append(conditions)
            }
            rules.append(
                IndexedRule(key: key, line: line, effect: effect, action: action, conditions: conditionIndex))
        }

        /// The table of the rules added, whose resource pattern ids are below `resourceCount`.
        func build(resourceCount: Int) -> RuleTable {
            RuleTable(rules, conditionLists: conditionLists, resourceCount: resourceCount)
        }
    }

    private init(_ added: [IndexedRule], conditionLists: [[RuleCondition]], resourceCount: Int) {
        // A counting sort by resource pattern id: count, then place each rule after the ones of
        // lower ids.
        var starts = [Int32](repeating: 0, count: resourceCount + 1)
        for rule in added {
            starts[Int(rule.key.resource) + 1] += 1
        }
        for resource in 0..<resourceCount {
            starts[resource + 1] += starts[resource]
        }
        var next = starts
        var rules = added
        for rule in added {
            rules[Int(next[Int(rule.key.resource)])] = rule
            next[Int(rule.key.resource)] += 1
        }
        var runs = HashedIDs<UInt64>()
        for resource in 0..<resourceCount {
            let range = Int(starts[resource])..<Int(starts[resource + 1])
            guard range.count > Self.scanLimit else { continue }
            rules[range].sort { $0.key.subject < $1.key.subject }
            for index in range where index == range.lowerBound || rules[index - 1].key != rules[index].key {
                runs[rules[index].key.packed] = Int32(index)
            }
        }
        self.rules = rules
        self.starts = starts
        self.runs = runs
        self.conditionLists = conditionLists
    }

    /// The positions of the rules of resource pattern `resource`.
    func rules(of resource: Int32) -> Range<Int> {
        Int(starts[Int(resource)])..<Int(starts[Int(resource) + 1])
    }

    /// The positions of the rules filed under `key`, whose resource pattern has `range`
    /// (``rules(of:)``) of more than ``scanLimit`` rules.
    func rules(_ key: RuleKey, in range: Range<Int>) -> Range<Int> {
        guard let first = runs[key.packed] else { return 0..<0 }
        var end = Int(first) + 1
        while end < range.upperBound && rules[end].key.subject == key.subject {
            end += 1
        }
        return Int(first)..<end
    }

    /// The rule at `position`.
    subscript(position: Int) -> IndexedRule {
        rules[position]
    }

    /// Whether every condition of `rule` holds for `request`.
    func conditionsHold(_ rule: IndexedRule, _ request: AccessRequest) -> Bool {
        rule.conditions < 0 || conditionLists[Int(rule.conditions)].allSatisfy { $0.holds(in: request) }
    }
}
