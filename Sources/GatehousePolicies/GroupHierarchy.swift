import GatehouseCore

/// Every group each subject of a rules file belongs to, directly or not: a `Set` kept, or walked at
/// each decision for a subject deep in a long chain, so that reading costs in proportion to the file.
struct GroupHierarchy: Sendable {
    /// How many more groups than name it a subject may belong to for its groups to be kept.
    static let storedLimit = 32

    /// Every group of each subject with few; the groups naming each subject with many; the groups
    /// naming each group.
    private let kept: [String: Set<String>]
    private let deep: [String: [String]]
    private let holders: [String: [String]]

    /// `naming`: subject → groups naming it; `holders`: group → groups naming it.
    init(naming: [String: [String]], holders: [String: [String]]) {
        var kept: [String: Set<String>] = [:]
        var deep: [String: [String]] = [:]
        for (subject, groups) in naming {
            if let all = Self.walk(from: groups, holders: holders, limit: groups.count + Self.storedLimit) {
                kept[subject] = all
            } else {
                deep[subject] = groups
            }
        }
        self.kept = kept
        self.deep = deep
        self.holders = holders
    }

    /// Every subject a group names directly (a nested group's subjects are named by it).
    var subjects: [String] { Array(kept.keys) + Array(deep.keys) }

    func groups(of subject: String) -> Set<String> {
        if let groups = Self.value(of: subject, in: kept) { return groups }
        guard let naming = Self.value(of: subject, in: deep) else { return [] }
        return Self.walk(from: naming, holders: holders, limit: .max) ?? []
    }

    /// The groups `naming` and every group holding one of them, transitively; `nil` as soon as
    /// there are more than `limit`.
    private static func walk(from naming: [String], holders: [String: [String]], limit: Int) -> Set<String>? {
        var found = Set(naming)
        var next = Array(found)
        while let group = next.popLast() {
            for holder in holders[group] ?? [] where found.insert(holder).inserted {
                if found.count > limit { return nil }
                next.append(holder)
            }
        }
        return found
    }

    /// The value under `key` spelled with the same bytes: a dictionary finds keys by canonical
    /// equivalence, a subject matches by bytes.
    private static func value<Value>(of key: String, in dictionary: [String: Value]) -> Value? {
        guard let index = dictionary.index(forKey: key),
            AccessPlan.Pattern.sameBytes(dictionary.keys[index], key)
        else { return nil }
        return dictionary.values[index]
    }
}
