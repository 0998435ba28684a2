/// The groups of a rules file as a decision needs them: for each subject, every group it
/// belongs to, directly or through nested groups.
///
/// Kept are what the file says: the groups naming each subject, and the groups naming each
/// group with `@` (its holders). A subject's groups are found by a walk up from its own groups
/// through the holders, each group once. The walk's result is also worked out when the file is
/// read, and kept, for every subject it belongs to at most ``storedLimit`` groups more than the
/// lines naming it (so a decision for it looks its groups up instead of walking); a subject with
/// more (deep in a long chain) is walked for at each decision that needs its groups.
///
/// So memory and the work of reading grow with the file, however deep the nesting: working out
/// every subject's groups cost `members × depth`, which for a chain of groups
/// (`group gI @gI+1 sI`) grows with the square of the file (16,000 lines took 25 s and
/// 2.4 GB). A decision costs in proportion to the subject's groups only when they are many.
struct GroupHierarchy: Sendable {
    /// How many more groups than the lines naming it a subject may belong to for its groups to
    /// be kept when the file is read.
    static let storedLimit = 32

    /// What the file says: the groups naming each subject, and each group's holders.
    private let graph: Graph
    /// The subject keys (see `RuleKey`) of every group subject pattern `i` belongs to, when
    /// kept, are `keptKeys[keptStarts[i]..<keptStarts[i + 1]]`, ascending; the range is empty
    /// for a subject that is walked for.
    private let keptStarts: [Int32]
    private let keptKeys: [Int32]

    /// The hierarchy of `members` (subject pattern id → the groups naming it) and `holders`
    /// (group id → the groups naming it), for subject pattern ids below `subjectCount`.
    init(members: [Int: [Int32]], holders: [[Int32]], subjectCount: Int) {
        let graph = Graph(
            subjects: (0..<subjectCount).map { Self.ascendingOnce(members[$0] ?? []) },
            holders: holders.map(Self.ascendingOnce))
        var kept: [[Int32]] = []
        kept.reserveCapacity(subjectCount)
        for subject in 0..<subjectCount {
            let named = graph.groupsNaming(subject).count
            let groups = named == 0 ? [] : graph.walk(from: subject, limit: named + Self.storedLimit)
            kept.append((groups ?? []).map(RuleKey.subject(group:)).sorted())
        }
        self.graph = graph
        (keptStarts, keptKeys) = Self.flattened(kept)
    }

    /// Whether any group names subject pattern `subject`.
    func hasGroups(subject: Int) -> Bool {
        !graph.groupsNaming(subject).isEmpty
    }

    /// The subject keys (see `RuleKey`) of every group subject pattern `subject` belongs to,
    /// ascending: kept ones, or a walk's.
    func groupKeys(of subject: Int) -> ArraySlice<Int32> {
        let kept = Int(keptStarts[subject])..<Int(keptStarts[subject + 1])
        if !kept.isEmpty || !hasGroups(subject: subject) { return keptKeys[kept] }
        let groups = graph.walk(from: subject, limit: .max) ?? []
        return ArraySlice(groups.map(RuleKey.subject(group:)).sorted())
    }

    /// The groups naming each subject and each group, as the file says them.
    private struct Graph {
        /// The groups (ids) naming subject pattern `i` are
        /// `subjectGroups[subjectStarts[i]..<subjectStarts[i + 1]]`, ascending, once each.
        let subjectStarts: [Int32]
        let subjectGroups: [Int32]
        /// The groups (ids) naming group `g` are `holders[holderStarts[g]..<holderStarts[g + 1]]`,
        /// ascending, once each.
        let holderStarts: [Int32]
        let holders: [Int32]

        init(subjects: [[Int32]], holders: [[Int32]]) {
            (subjectStarts, subjectGroups) = GroupHierarchy.flattened(subjects)
            (holderStarts, self.holders) = GroupHierarchy.flattened(holders)
        }

        /// The positions in `subjectGroups` of the groups naming subject pattern `subject`.
        func groupsNaming(_ subject: Int) -> Range<Int> {
            Int(subjectStarts[subject])..<Int(subjectStarts[subject + 1])
        }

        /// The ids of every group subject pattern `subject` belongs to: the groups naming it,
        /// and every group holding one of those, transitively, each visited once. `nil` as soon
        /// as there are more than `limit`.
        func walk(from subject: Int, limit: Int) -> Set<Int32>? {
            var found = Set<Int32>()
            var next: [Int32] = []
            for index in groupsNaming(subject) where found.insert(subjectGroups[index]).inserted {
                next.append(subjectGroups[index])
            }
            while let group = next.popLast() {
                for index in Int(holderStarts[Int(group)])..<Int(holderStarts[Int(group) + 1])
                where found.insert(holders[index]).inserted {
                    if found.count > limit { return nil }
                    next.append(holders[index])
                }
            }
            return found
        }
    }

    /// `ids` ascending, each once: a member named on many lines is walked through once.
    private static func ascendingOnce(_ ids: [Int32]) -> [Int32] {
        var result: [Int32] = []
        for id in ids.sorted() where result.last != id {
            result.append(id)
        }
        return result
    }

    /// The lists one after the other, and where each starts (with the end of the last).
    fileprivate static func flattened(_ lists: [[Int32]]) -> (starts: [Int32], elements: [Int32]) {
        var starts: [Int32] = [0]
        starts.reserveCapacity(lists.count + 1)
        var elements: [Int32] = []
        for list in lists {
            elements += list
            starts.append(Int32(elements.count))
        }
        return (starts, elements)
    }
}
