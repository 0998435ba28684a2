import Foundation
import GatehouseCore

/// The exact difference in decisions between two versions of a rules file: for each class of
/// request, the resources whose decision changes, as residuals over resource names.
///
/// ```swift
/// let diff = try RulesDiff(old: FilePolicy(url: before), new: FilePolicy(url: after))
/// for change in diff.changes() { print(change) }
/// let one = diff.change(subject: "alice", action: .read)   // nil: no decision changes
/// ```
/// For a subject, action and attributes, each version's rules fold into a plan over resource
/// names (as ``RulesPolicy/plan(_:)`` does); what the new version allows and the old does not is
/// ``Change/gained``, the reverse ``Change/lost``. Whether either holds for any name is decided
/// exactly, by walking the product of the patterns' automata, which also gives the example.
///
/// The classes of ``changes(subject:action:attributes:)`` are: each subject named in either version (in a rule
/// or a group), requests without a subject, and any other subject (one for each set of subject
/// patterns such as `a*` it may match); each action named, and any other action (likewise). The
/// caller's attributes are those given. Rules files decide without a clock, so the instant never
/// matters. See docs/changing-rules.md.
public struct RulesDiff: Sendable {
    /// The name of the old version, as in its rules' references.
    public var oldName: String { old.fileName }
    /// The name of the new version.
    public var newName: String { new.fileName }

    let old: RulesFile
    let new: RulesFile

    /// The difference from the rules of `old` to those of `new`.
    public init(old: RulesPolicy, new: RulesPolicy) {
        self.init(old: old.rules, new: new.rules)
    }

    /// The difference from the rules file `old` to `new`, each read now.
    ///
    /// - Throws: ``RulesFileError`` when either cannot be read or is invalid.
    public init(old: FilePolicy, new: FilePolicy) throws(RulesFileError) {
        self.init(old: try old.parsedRules(), new: try new.parsedRules())
    }

    init(old: RulesFile, new: RulesFile) {
        self.old = old
        self.new = new
        reach = Reach(old: old, new: new)
        // Only a subject a differing rule or a change of groups reaches is ever folded.
        let reached = reach.wide ? nil : reach.namedSubjects(old: old, new: new)
        oldIndex = RuleIndex(old, keeping: reached)
        newIndex = RuleIndex(new, keeping: reached)
    }

    let reach: Reach

    let oldIndex: RuleIndex
    let newIndex: RuleIndex

    /// A version's rules by subject, so that a class reads only the rules that may hold for it.
    struct RuleIndex: Sendable {
        var exact: [String: [RulesFile.Rule]] = [:]
        var groups: [String: [RulesFile.Rule]] = [:]
        /// `*` and subject patterns.
        var wide: [RulesFile.Rule] = []
        let file: RulesFile

        /// The index of `file`'s rules; with `keeping`, of the rules naming an exact subject or a
        /// group only those naming one of `keeping` or a group one of them belongs to.
        init(_ file: RulesFile, keeping: Set<String>?) {
            self.file = file
            let kept = keeping.map { $0.reduce(into: Set<String>()) { $0.formUnion(file.groups(of: $1)) } }
            for rule in file.indexedRules {
                switch rule.subjectKind {
                case .any, .pattern:
                    wide.append(file.written(rule))
                case .group where kept?.contains(rule.subject) ?? true:
                    groups[rule.subject, default: []].append(file.written(rule))
                case .exact where keeping?.contains(rule.subject) ?? true:
                    exact[rule.subject, default: []].append(file.written(rule))
                case .group, .exact:
                    break
                }
            }
        }

        /// The rules whose subject may hold `subject`, in line order.
        func candidates(for subject: String?) -> [RulesFile.Rule] {
            guard let subject else { return wide }
            // Keys compare by canonical equivalence; the planner then compares bytes.
            var found = wide + (exact[subject] ?? [])
            for group in file.groups(of: subject) { found += groups[group] ?? [] }
            return found.sorted { $0.line < $1.line }
        }
    }

    /// How the decisions of one class of request change.
    public struct Change: Sendable, Hashable {
        /// The subject, or `nil` for requests without one (``withoutSubject``) or for any other
        /// subject: one named in neither version, matching exactly ``subjectMatches`` of the
        /// versions' subject patterns.
        public var subject: String?
        /// Whether the class is the requests without a subject (the app itself, or anonymous).
        public var withoutSubject: Bool
        /// For any other subject: the subject patterns (other than `*`) it matches.
        public var subjectMatches: [String]
        /// The action, or `nil` for any other action: one named in neither version, matching
        /// exactly ``actionMatches`` of the versions' action patterns.
        public var action: String?
        /// For any other action: the action patterns (other than `*`) it matches.
        public var actionMatches: [String]
        /// The caller's attributes the class was computed with.
        public var attributes: [String: String]
        /// The resources the new version allows and the old one denies; `AccessPlan.Residual.nothing`
        /// when none.
        public var gained: AccessPlan.Residual
        /// The resources the old version allows and the new one denies.
        public var lost: AccessPlan.Residual
        /// The old version's rules that match some request whose decision changes, in line order.
        public var before: [RuleReference]
        /// The new version's rules that match some request whose decision changes.
        public var after: [RuleReference]
        /// One request whose decision changes (for any other subject or action, a stand-in for it).
        public var example: AccessRequest
        /// Whether the old version allows ``example``; the new version decides the opposite.
        public var exampleWasAllowed: Bool
    }

    /// How decisions change for `subject` (`nil`: no subject), `action` and the caller's
    /// `attributes`, or `nil` when no decision changes.
    public func change(subject: String?, action: AccessAction, attributes: [String: String] = [:]) -> Change?
    {
        // No differing rule holds for the subject and its groups are the same: nothing changes.
        if reach.actions(for: subject, old: old, new: new)?.isEmpty == true { return nil }
        var memo: [Folding: Outcome?] = [:]
        return compare(
            Change(
                subject: subject, withoutSubject: subject == nil, subjectMatches: [], action: action.rawValue,
                actionMatches: [], attributes: attributes, gained: .nothing, lost: .nothing, before: [],
                after: [],
                example: AccessRequest(
                    subject: subject, action: action, resource: "", attributes: attributes),
                exampleWasAllowed: false), memo: &memo)
    }

    /// Every class of request whose decisions change; `subject` or `action`, when given, keeps to
    /// that one. The caller's `attributes` are given; each attribute either version reads and
    /// `attributes` does not give is tried absent, with each value a condition names, and, when a
    /// placeholder reads it, with a value no rule names (see ``attributeClasses(given:)``). Empty
    /// when no decision changes.
    public func changes(
        subject: String? = nil, action: AccessAction? = nil, attributes: [String: String] = [:]
    ) -> [Change] {
        guard !reach.rules.isEmpty || !reach.regrouped.isEmpty else { return [] }
        let subjects: [SubjectClass]
        if let subject {
            subjects = [SubjectClass(name: subject, withoutSubject: false, matches: [], stand: subject)]
        } else if reach.wide {
            subjects = subjectClasses(attributes: attributes)
        } else {
            // No differing rule is wide: only named subjects can see a difference.
            subjects = reach.namedSubjects(old: old, new: new).sorted().map {
                SubjectClass(name: $0, withoutSubject: false, matches: [], stand: $0)
            }
        }
        var allActions: [ActionClass]?
        var reached: [(who: SubjectClass, actions: [ActionClass])] = []
        for who in subjects {
            // The action fields of the differing rules that may hold for this subject; none: no
            // decision changes for it, whatever the action and attributes.
            let fields = reach.actions(for: who.stand, old: old, new: new)
            if let fields, fields.isEmpty { continue }
            let actions: [ActionClass]
            if let action {
                actions = [ActionClass(name: action.rawValue, matches: [], stand: action.rawValue)]
            } else if fields?.allSatisfy({ !$0.contains("*") }) == true {
                // Exact action fields reach named actions only.
                actions = namedActionClasses()
            } else if let known = allActions {
                actions = known
            } else {
                actions = actionClasses()
                allActions = actions
            }
            let kept = actions.filter { what in
                fields.map { $0.contains { AccessPlan.Pattern.matches($0, what.stand) } } ?? true
            }
            if !kept.isEmpty { reached.append((who, kept)) }
        }
        var found: [Change] = []
        var memo: [Folding: Outcome?] = [:]
        for values in attributeClasses(given: attributes) {
            for (who, actions) in reached {
                for what in actions {
                    let template = Change(
                        subject: who.name, withoutSubject: who.withoutSubject, subjectMatches: who.matches,
                        action: what.name, actionMatches: what.matches, attributes: values,
                        gained: .nothing, lost: .nothing, before: [], after: [],
                        example: AccessRequest(
                            subject: who.stand, action: AccessAction(rawValue: what.stand), resource: "",
                            attributes: values),
                        exampleWasAllowed: false)
                    if let change = compare(template, memo: &memo) { found.append(change) }
                }
            }
        }
        return found
    }

    // MARK: - One class

    /// `template` with its residuals, rules and example filled in, or `nil` when nothing changes;
    /// `memo` keeps the outcome of each pair of folded rule lists (classes often share them).
    private func compare(_ template: Change, memo: inout [Folding: Outcome?]) -> Change? {
        let request = AccessPlan.Request(
            subject: template.example.subject, action: template.example.action,
            attributes: template.attributes)
        let folding = Folding(
            old: old.regions(for: request, among: oldIndex.candidates(for: request.subject)).map {
                Folded(line: $0.rule.line, allows: $0.rule.effect == .allow, region: $0.region)
            },
            new: new.regions(for: request, among: newIndex.candidates(for: request.subject)).map {
                Folded(line: $0.rule.line, allows: $0.rule.effect == .allow, region: $0.region)
            })
        let outcome: Outcome?
        if let known = memo[folding] {
            outcome = known
        } else {
            outcome = compare(folding)
            memo[folding] = .some(outcome)
        }
        guard let outcome else { return nil }
        var change = template
        change.gained = outcome.gained
        change.lost = outcome.lost
        change.before = outcome.before
        change.after = outcome.after
        change.example.resource = outcome.resource
        change.exampleWasAllowed = outcome.wasAllowed
        return change
    }

    /// One rule folded for a class: its line, effect and the names it can match.
    struct Folded: Hashable {
        var line: Int
        var allows: Bool
        var region: AccessPlan.Pattern
    }

    /// Both versions' rules folded for a class.
    struct Folding: Hashable {
        var old: [Folded]
        var new: [Folded]
    }

    /// What changes for a folding.
    struct Outcome {
        var gained: AccessPlan.Residual
        var lost: AccessPlan.Residual
        var before: [RuleReference]
        var after: [RuleReference]
        var resource: String
        var wasAllowed: Bool
    }

    private func compare(_ folding: Folding) -> Outcome? {
        // The same rules for this class: the same decisions.
        let key = { (rules: [Folded]) in Set(rules.map { RegionKey(allows: $0.allows, region: $0.region) }) }
        if key(folding.old) == key(folding.new) { return nil }
        let before = Self.allowed(folding.old)
        let after = Self.allowed(folding.new)
        var automaton = PatternAutomaton([before, after])
        var gained = AccessPlan.Residual.allOf([after, .not(before)])
        var lost = AccessPlan.Residual.allOf([before, .not(after)])
        let gainedExample = automaton.witness(gained).map { Self.example(in: gained, $0, &automaton) }
        let lostExample = automaton.witness(lost).map { Self.example(in: lost, $0, &automaton) }
        guard let resource = gainedExample ?? lostExample else { return nil }
        gained = gainedExample == nil ? .nothing : Self.simplified(gained, &automaton)
        lost = lostExample == nil ? .nothing : Self.simplified(lost, &automaton)
        let changed = AccessPlan.Residual.anyOf([gained, lost])
        return Outcome(
            gained: gained, lost: lost,
            before: Self.responsible(folding.old, changed, old.fileName, &automaton),
            after: Self.responsible(folding.new, changed, new.fileName, &automaton),
            resource: resource, wasAllowed: gainedExample == nil)
    }

    /// The shortest name in `residual` that a path may be, else `any` (a name in it).
    private static func example(
        in residual: AccessPlan.Residual, _ any: String, _ automaton: inout PatternAutomaton
    ) -> String {
        // A shortest name that is already tidy is a shortest tidy one: no second walk.
        if isTidy(any) { return any }
        return automaton.pathWitness(residual) ?? any
    }

    /// Whether `name` is a path: not empty, and its components, split at `/`, none empty, `.` or
    /// `..`.
    static func isTidy(_ name: String) -> Bool {
        name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }

    private struct RegionKey: Hashable {
        var allows: Bool
        var region: AccessPlan.Pattern
    }

    /// Where some rule allows and none denies.
    private static func allowed(_ rules: [Folded]) -> AccessPlan.Residual {
        let allows = rules.filter(\.allows).map { AccessPlan.Residual.matching($0.region) }
        let denies = rules.filter { !$0.allows }.map { AccessPlan.Residual.matching($0.region) }
        return .allOf([.anyOf(allows), .not(.anyOf(denies))])
    }

    /// The rules whose region meets `changed`, as references in line order.
    private static func responsible(
        _ rules: [Folded], _ changed: AccessPlan.Residual, _ file: String, _ automaton: inout PatternAutomaton
    ) -> [RuleReference] {
        rules.filter { automaton.witness(.allOf([.matching($0.region), changed])) != nil }
            .map { RuleReference(source: file, line: $0.line) }
    }

    // MARK: - Simplifying

    /// The most parts `simplified` tries to drop; a larger residual is shown as computed.
    static let simplifyingLimit = 12

    /// `residual` with each part dropped that changes no name: a member of `all` that every name
    /// of the rest is in, a member of `any` that adds no name. Exact: each drop is checked.
    static func simplified(_ residual: AccessPlan.Residual, _ automaton: inout PatternAutomaton)
        -> AccessPlan.Residual
    {
        var current = residual
        if let normal = automaton.normalForm(residual), normal.partCount <= current.partCount {
            current = normal
        }
        guard current.partCount <= simplifyingLimit else { return current }
        var dropped = true
        while dropped {
            dropped = false
            for path in current.paths where !path.isEmpty {
                let candidate = current.dropping(at: path[...])
                if candidate == current { continue }
                let differ = AccessPlan.Residual.anyOf([
                    .allOf([candidate, .not(current)]), .allOf([current, .not(candidate)]),
                ])
                if automaton.witness(differ) == nil {
                    current = candidate
                    dropped = true
                    break
                }
            }
        }
        return current
    }
}

extension AccessPlan.Residual {
    /// How many parts the residual has, itself included.
    fileprivate var partCount: Int {
        switch self {
        case .all(let members), .any(let members): 1 + members.reduce(0) { $0 + $1.partCount }
        case .complement(let member): 1 + member.partCount
        default: 1
        }
    }

    /// The place of every part, outermost first: the member indexes leading to it.
    fileprivate var paths: [[Int]] {
        switch self {
        case .all(let members), .any(let members):
            [[]] + members.enumerated().flatMap { index, member in member.paths.map { [index] + $0 } }
        case .complement(let member): [[]] + member.paths.map { [0] + $0 }
        default: [[]]
        }
    }

    /// The residual with the part at `path` dropped from the `all` or `any` holding it (under a
    /// `not`, the `not` and its member go together, as one part of their holder).
    fileprivate func dropping(at path: ArraySlice<Int>) -> AccessPlan.Residual {
        guard let first = path.first else { return self }
        let rest = path.dropFirst()
        switch self {
        case .all(var members):
            if rest.isEmpty {
                members.remove(at: first)
            } else {
                members[first] = members[first].dropping(at: rest)
            }
            return .allOf(members)
        case .any(var members):
            if rest.isEmpty {
                members.remove(at: first)
            } else {
                members[first] = members[first].dropping(at: rest)
            }
            return .anyOf(members)
        case .complement(let member):
            return rest.isEmpty ? self : .not(member.dropping(at: rest))
        default: return self
        }
    }
}

// MARK: - Classes

extension RulesDiff {
    /// A class of subjects: a name (`stand` is it), none, or any other (`stand` one of them).
    struct SubjectClass {
        var name: String?
        var withoutSubject: Bool
        var matches: [String]
        var stand: String?
    }

    /// A class of actions: a name, or any other (`stand` one of them).
    struct ActionClass {
        var name: String?
        var matches: [String]
        var stand: String
    }

    /// Each subject either version names (in a rule, in a group) or the attributes hold, then
    /// requests without a subject, then any other subject, one class per set of subject patterns
    /// it may match.
    func subjectClasses(attributes: [String: String]) -> [SubjectClass] {
        var named: Set<String> = []
        var patterns: Set<String> = []
        for file in [old, new] {
            for rule in file.indexedRules {
                switch rule.subjectKind {
                case .exact: named.insert(rule.subject)
                case .pattern: patterns.insert(rule.subject)
                case .any, .group: break
                }
            }
            named.formUnion(file.groups.subjects)
        }
        // A condition such as `owner={subject}` singles out the subject equal to a value.
        named.formUnion(attributes.values.filter { !$0.isEmpty })
        var classes = named.sorted().map {
            SubjectClass(name: $0, withoutSubject: false, matches: [], stand: $0)
        }
        classes.append(SubjectClass(name: nil, withoutSubject: true, matches: [], stand: nil))
        for atom in Self.atoms(patterns.sorted(), excluding: named, avoiding: textScalars) {
            classes.append(
                SubjectClass(name: nil, withoutSubject: false, matches: atom.matches, stand: atom.stand))
        }
        return classes
    }

    /// The attribute sets the classes are computed with: `given` first, then `given` with each
    /// attribute the versions read and `given` lacks set to each value a condition names for it
    /// and, when a placeholder reads it, to `other` (a value no rule spells); every combination
    /// while there are at most 64, else one attribute at a time.
    public func attributeClasses(given: [String: String]) -> [[String: String]] {
        var values: [String: Set<String>] = [:]
        var text = ""
        for file in [old, new] {
            for conditions in file.conditions.values {
                for condition in conditions {
                    text += condition.value + "\n"
                    if !Placeholders.mayHold(condition.value) {
                        values[condition.key, default: []].insert(condition.value)
                    } else {
                        values[condition.key, default: []].formUnion([])
                    }
                    for name in Placeholders.names(in: condition.value).map(String.init) {
                        values[name, default: []].insert("")
                    }
                }
            }
            for pattern in file.resources.patterns where Placeholders.mayHold(pattern) {
                for name in Placeholders.names(in: pattern) { values[String(name), default: []].insert("") }
            }
        }
        var other = "other"
        if values.values.contains(where: { $0.contains("") }) {
            // Only then is `other` tried: it must be text no pattern or condition holds.
            for file in [old, new] {
                for pattern in file.resources.patterns { text += pattern + "\n" }
            }
            while text.contains(other) { other += "-1" }
        }
        // "" marks a name a placeholder reads: it is tried with `other` (an empty value is unusable).
        let choices: [(name: String, values: [String])] = values.keys.sorted().compactMap { name in
            guard name != "subject", given[name] == nil, let named = values[name] else { return nil }
            let tried = named.filter { !$0.isEmpty }.sorted() + (named.contains("") ? [other] : [])
            return tried.isEmpty ? nil : (name, tried)
        }
        let combinations = choices.reduce(1) { $0 * ($1.values.count + 1) }
        if combinations > 64 {
            return [given]
                + choices.flatMap { choice in
                    choice.values.map { value in given.merging([choice.name: value]) { $1 } }
                }
        }
        var sets = [given]
        for choice in choices {
            sets = sets.flatMap { set in [set] + choice.values.map { set.merging([choice.name: $0]) { $1 } } }
        }
        return sets
    }

    /// Each action either version names, then any other action, one class per set of action
    /// patterns it may match.
    func actionClasses() -> [ActionClass] {
        let (named, patterns) = actionNames()
        var classes = named.sorted().map { ActionClass(name: $0, matches: [], stand: $0) }
        for atom in Self.atoms(patterns.sorted(), excluding: named, avoiding: textScalars) {
            classes.append(ActionClass(name: nil, matches: atom.matches, stand: atom.stand))
        }
        return classes
    }

    /// Each action either version names, without the classes of any other action.
    func namedActionClasses() -> [ActionClass] {
        actionNames().named.sorted().map { ActionClass(name: $0, matches: [], stand: $0) }
    }

    /// The actions the versions name, and their action patterns other than `*`.
    private func actionNames() -> (named: Set<String>, patterns: Set<String>) {
        var named: Set<String> = []
        var patterns: Set<String> = []
        for file in [old, new] {
            for action in file.actions where action != "*" {
                if action.unicodeScalars.contains("*") {
                    patterns.insert(action)
                } else {
                    named.insert(action)
                }
            }
        }
        return (named, patterns)
    }

    /// Every character the versions' resource patterns and conditions hold: a stand-in made of
    /// others cannot be mistaken, once substituted, for text a rule names.
    private var textScalars: Set<Unicode.Scalar> {
        var scalars: Set<Unicode.Scalar> = []
        for file in [old, new] {
            for pattern in file.resources.patterns { scalars.formUnion(pattern.unicodeScalars) }
            for conditions in file.conditions.values {
                for condition in conditions { scalars.formUnion(condition.value.unicodeScalars) }
            }
        }
        return scalars
    }

    /// One stand-in name for each set of `patterns` that some name outside `excluding` matches
    /// exactly: the shortest such name, never empty, never holding `/` or a control character (so
    /// that it can fill a placeholder), its fresh character one none of `avoiding` holds.
    static func atoms(_ patterns: [String], excluding: Set<String>, avoiding: Set<Unicode.Scalar>)
        -> [(matches: [String], stand: String)]
    {
        let wild = patterns.map { AccessPlan.Pattern($0) }
        var automaton = PatternAutomaton(
            wild.map { AccessPlan.Residual.matching($0) },
            extra: avoiding.union(excluding.flatMap(\.unicodeScalars)))
        return automaton.classes(of: wild, excluding: excluding).map { atom in
            (patterns.indices.filter { atom.matches[$0] }.map { patterns[$0] }, atom.name)
        }
    }

}

extension FilePolicy {
    /// The file's rules as they are now.
    ///
    /// - Throws: ``RulesFileError`` when the file cannot be read or is invalid.
    func parsedRules() throws(RulesFileError) -> RulesFile {
        let snapshot = try readFile()
        do {
            return try RulesFile.parse(
                snapshot.bytes, fileName: fileName, requireEnd: requireEnd, attributes: attributes)
        } catch let error as RulesFileError {
            throw error
        } catch {
            throw RulesFileError(file: fileName, kind: .malformed, message: describe(error))
        }
    }
}
