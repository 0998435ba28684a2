import GatehouseCore

/// The `group` lines of a rules file: which subjects and groups each group holds, checked once
/// the whole file is read (every group named is defined, and none holds itself).
struct RuleGroups {
    private struct Group {
        var name: String
        /// The first `group` line defining it, or `nil` while it is only named.
        var definedAt: Int?
        /// The first line naming it with `@`.
        var firstReference: Int?
        var subjects: [String] = []
        /// Group members, each with the line that names it.
        var members: [(id: Int32, line: Int)] = []
    }

    private var groups: [Group] = []
    private var ids: [String: Int32] = [:]

    /// The id of the group `name`, noting that `line` names it with `@`.
    @discardableResult
    mutating func reference(_ name: String, line: Int) -> Int32 {
        let id = self.id(name)
        groups[Int(id)].firstReference = groups[Int(id)].firstReference ?? line
        return id
    }

    /// Adds members to the group `name`, defined (or extended) at `line`.
    mutating func define(_ name: String, line: Int, subjects: [String], groups members: [String]) {
        let id = self.id(name)
        groups[Int(id)].definedAt = groups[Int(id)].definedAt ?? line
        groups[Int(id)].subjects += subjects
        for member in members {
            groups[Int(id)].members.append((reference(member, line: line), line))
        }
    }

    private mutating func id(_ name: String) -> Int32 {
        let id = ids.value(for: name, inserting: Int32(groups.count))
        if id == groups.count { groups.append(Group(name: name)) }
        return id
    }

    var count: Int { groups.count { $0.definedAt != nil } }

    /// Every group named but not defined, and every cycle.
    func problems() -> [RulesFileError.Issue] {
        undefinedProblems() + cycleProblems()
    }

    /// The groups naming each subject and each group, once ``problems()`` found none.
    func hierarchy() -> GroupHierarchy {
        var holders: [String: [String]] = [:]
        var naming: [String: [String]] = [:]
        for group in groups {
            for member in group.members {
                holders[groups[Int(member.id)].name, default: []].append(group.name)
            }
            for subject in group.subjects {
                naming[subject, default: []].append(group.name)
            }
        }
        return GroupHierarchy(naming: naming, holders: holders)
    }

    /// A problem for each group named but not defined, at the first line naming it; only those an
    /// error lists look for a close name.
    private func undefinedProblems() -> [RulesFileError.Issue] {
        let undefined = groups.filter { $0.definedAt == nil }.sorted {
            ($0.firstReference ?? 0) < ($1.firstReference ?? 0)
        }
        let defined = groups.compactMap { $0.definedAt == nil ? nil : $0.name }.sorted()
        return undefined.enumerated().map { index, group in
            let closest =
                index < RulesFileError.problemLimit
                ? closestName(to: group.name, among: defined, within: 2) : nil
            let hint =
                closest.map { "; did you mean \"\($0)\"?" }
                ?? "; define it with a line \"group \(group.name) MEMBER...\""
            return RulesFileError.Issue(
                line: group.firstReference, kind: .malformed,
                message: "undefined group \"\(group.name)\"\(hint)")
        }
    }

    /// A problem at the line naming the group that closes each cycle (a depth-first walk).
    private func cycleProblems() -> [RulesFileError.Issue] {
        enum Mark { case new, onPath, done }
        var problems: [RulesFileError.Issue] = []
        var marks = [Mark](repeating: .new, count: groups.count)
        // The walk's path: each group with the index of its next member to visit.
        var path: [(id: Int32, next: Int)] = []
        for root in groups.indices where marks[root] == .new {
            marks[root] = .onPath
            path.append((Int32(root), 0))
            while let (id, next) = path.last {
                let members = groups[Int(id)].members
                guard next < members.count else {
                    marks[Int(id)] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let member = members[next]
                switch marks[Int(member.id)] {
                case .onPath:
                    let start = path.firstIndex { $0.id == member.id } ?? 0
                    problems.append(
                        RulesFileError.Issue(
                            line: member.line, kind: .malformed,
                            message:
                                "group cycle: \(cycle(path[start...].map(\.id))); a group cannot hold itself")
                    )
                case .new:
                    marks[Int(member.id)] = .onPath
                    path.append((member.id, 0))
                case .done:
                    break
                }
            }
        }
        return problems
    }

    /// `a -> b -> a`; a long cycle is cut short for denial reasons and logs:
    /// `a -> b -> c -> d -> e -> … (99,995 more) -> a`.
    private func cycle(_ ids: [Int32]) -> String {
        let shown = 8
        let names = ids.map { groups[Int($0)].name }
        guard names.count > shown else { return (names + [names[0]]).joined(separator: " -> ") }
        let first = names.prefix(shown - 3)
        return (first + ["… (\(grouped(names.count - first.count)) more)", names[0]]).joined(
            separator: " -> ")
    }
}

/// `number` with a comma before each group of three digits from the right: `99,995`.
func grouped(_ number: Int) -> String {
    var text = String(number)
    for offset in stride(from: text.count - 3, to: 0, by: -3) {
        text.insert(",", at: text.index(text.startIndex, offsetBy: offset))
    }
    return text
}
