import Foundation
import GatehouseCore

/// One parsed and indexed version of a rules file (format: docs/policies.md), immutable. A decision
/// reads only the rules of the resource patterns that match, so its cost does not grow with the file.
package final class RulesFile: Sendable {
    /// What a rule does to a request it matches.
    package enum Effect: Sendable, Hashable {
        /// The rule allows, unless a matching `deny` rule exists.
        case allow
        /// The rule denies; any matching deny wins.
        case deny
    }

    /// The rule that decided a request: its effect and 1-based line.
    package struct Verdict: Sendable, Hashable {
        /// Whether the deciding rule allows or denies.
        package var effect: Effect
        /// The deciding rule's line.
        package var line: Int

        package init(effect: Effect, line: Int) {
            self.effect = effect
            self.line = line
        }
    }

    /// One rule as written, for a reader of the parsed rules.
    package struct Rule: Sendable {
        /// Whether the rule allows or denies.
        package var effect: Effect
        /// The subject as written: exact, `*`, a pattern with `*`, or `@GROUP`.
        package var subject: String
        /// The action pattern.
        package var action: String
        /// The resource pattern, in NFC, with `*` and placeholders such as `{subject}`.
        package var resource: String
        /// The conditions after `if`, each `NAME=VALUE`, in order.
        package var conditions: [(name: String, value: String)]
        /// The rule's 1-based line.
        package var line: Int
    }

    /// The most rules a resource pattern may have for a decision to read them all.
    static let scanLimit = 8

    /// The file's name as used in reasons and errors, such as `avatars.rules`.
    package let fileName: String
    /// How many rules (lines starting with `allow` or `deny`) the file has.
    package let ruleCount: Int
    let resources: PatternLookup
    /// Sorted by resource pattern: pattern `i`'s are `indexedRules[starts[i]..<starts[i + 1]]`.
    let indexedRules: [IndexedRule]
    let starts: [Int32]
    /// The rules of each pattern with more than ``scanLimit``, filed by subject.
    let filed: [Int32: FiledRules]
    let actions: [String]
    let conditions: [Int32: [RuleCondition]]
    let groups: GroupHierarchy

    /// The positions of one resource pattern's rules, by subject.
    struct FiledRules: Sendable {
        var exact: [String: [Int32]] = [:]
        var groups: [String: [Int32]] = [:]
        /// `*` and subject patterns.
        var others: [Int32] = []
    }

    /// Parses rules from text, as from the bytes of a file.
    package static func parse(
        _ text: String, fileName: String, requireEnd: Bool = false, attributes: [String]? = nil
    ) throws -> RulesFile {
        try parse(Array(text.utf8), fileName: fileName, requireEnd: requireEnd, attributes: attributes)
    }

    /// Parses the UTF-8 bytes of a file, patterns in NFC; `attributes`, when given, are the only
    /// names a placeholder or condition may read.
    ///
    /// - Throws: ``RulesFileError`` listing every problem by line (``RulesFileError/Kind/incomplete``
    ///   for a file with no line, or without a required `end` line).
    package static func parse(
        _ bytes: [UInt8], fileName: String, requireEnd: Bool = false, attributes: [String]? = nil
    ) throws -> RulesFile {
        try parseCounted(bytes, fileName: fileName, requireEnd: requireEnd, attributes: attributes).file
    }

    /// `parse`, with the number of groups and, with `namingAttributes`, the attributes read (sorted).
    package static func parseCounted(
        _ bytes: [UInt8], fileName: String, requireEnd: Bool = false, attributes declared: [String]? = nil,
        namingAttributes: Bool = false
    ) throws -> (file: RulesFile, groupCount: Int, attributes: [String]) {
        var parser = RulesParser(lineCount: bytes.count { $0 == UInt8(ascii: "\n") } + 1)
        var uses: [RulesAttributeUse] = []
        let readingUses = declared != nil || namingAttributes
        let lineProblems = try RulesLexer.forEachLine(of: bytes, fileName: fileName) { line in
            parser.read(line)
            if readingUses { uses += attributeUses(in: line) }
        }
        if parser.isEmpty && lineProblems.isEmpty {
            let what = bytes.isEmpty ? "is empty (0 bytes)" : "holds no rule and no comment"
            throw RulesFileError(
                file: fileName, kind: .incomplete,
                message: "\(what), which is what a file being rewritten in place looks like; a file "
                    + "meant to hold no rules says so with a comment line")
        }
        var problems = lineProblems + parser.problems + parser.groups.problems()
        if let declared {
            problems += uses.filter { !declared.contains($0.name) }.map { undeclared($0, declared: declared) }
        }
        if requireEnd && parser.endLine == nil {
            problems.append(
                RulesFileError.Issue(
                    kind: .incomplete,
                    message: "has no end line, which this policy requires: the file may be a version "
                        + "still being written; finish it with a line \"end\""))
        }
        guard problems.isEmpty else { throw RulesFileError(file: fileName, problems: problems) }
        let groupCount = parser.groups.count
        let names = namingAttributes ? Set(uses.map(\.name)).sorted() : []
        return (RulesFile(&parser, fileName: fileName), groupCount, names)
    }

    /// Indexes what `parser` read without problems, taking its rules.
    private init(_ parser: inout RulesParser, fileName: String) {
        self.fileName = fileName
        ruleCount = parser.rules.count
        groups = parser.groups.hierarchy()
        // Freed before the index is built: with a million rules, the parser's tables are large.
        parser.resourceIDs = [:]
        var rules: [IndexedRule] = []
        swap(&rules, &parser.rules)
        rules.sort { $0.resource < $1.resource }
        let patternCount = parser.resources.count
        var starts = [Int32](repeating: 0, count: patternCount + 1)
        for rule in rules {
            starts[Int(rule.resource) + 1] += 1
        }
        var filed: [Int32: FiledRules] = [:]
        for pattern in 0..<patternCount {
            starts[pattern + 1] += starts[pattern]
            guard starts[pattern + 1] - starts[pattern] > Self.scanLimit else { continue }
            var index = FiledRules()
            for position in starts[pattern]..<starts[pattern + 1] {
                let rule = rules[Int(position)]
                switch rule.subjectKind {
                case .exact: index.exact[rule.subject, default: []].append(position)
                case .group: index.groups[rule.subject, default: []].append(position)
                case .any, .pattern: index.others.append(position)
                }
            }
            filed[Int32(pattern)] = index
        }
        indexedRules = rules
        self.starts = starts
        self.filed = filed
        actions = parser.actions
        conditions = parser.conditions
        resources = PatternLookup(parser.resources, placeholders: true)
    }

    /// The rules, in file order, as written (patterns in NFC).
    package var rules: [Rule] {
        indexedRules.map(written).sorted { $0.line < $1.line }
    }

    /// One of ``indexedRules`` as written.
    func written(_ rule: IndexedRule) -> Rule {
        Rule(
            effect: rule.effect, subject: rule.writtenSubject,
            action: actions[Int(rule.action)], resource: resources.patterns[Int(rule.resource)],
            conditions: (conditions[rule.line] ?? []).map { ($0.key, $0.value) }, line: Int(rule.line))
    }

    /// Every group `subject` belongs to, directly or through nested groups.
    package func groups(of subject: String) -> Set<String> {
        groups.groups(of: subject)
    }

    /// The first matching `deny` if any, else the first matching `allow`, else `nil` (which denies).
    package func decide(_ request: AccessRequest) -> Verdict? {
        var search = Search(file: self, request: request)
        resources.forEachMatch(of: request.resource, values: request) { pattern in
            search.visit(pattern: pattern)
            return false
        }
        if search.deny != .max { return Verdict(effect: .deny, line: Int(search.deny)) }
        if search.allow != .max { return Verdict(effect: .allow, line: Int(search.allow)) }
        return nil
    }

    /// The rule that decides a request with these fields and no attributes; see `decide(_:)`.
    package func decide(subject: String?, action: String, resource: String) -> Verdict? {
        decide(AccessRequest(subject: subject, action: action, resource: resource))
    }

    /// The decision for `request`: allow, or a denial naming the deciding line.
    package func decision(for request: AccessRequest) -> AccessDecision {
        explanation(for: request).decision
    }

    /// The decision for `request` with the deciding rule (`avatars.rules:3 denies`), or a denial
    /// saying that no rule allows.
    package func explanation(for request: AccessRequest) -> AccessExplanation {
        guard let verdict = decide(request) else {
            return AccessExplanation(.deny(reason: "no rule in \(fileName) allows"))
        }
        let rule = RuleReference(source: fileName, line: verdict.line)
        return AccessExplanation(
            verdict.effect == .allow ? .allow : .deny(reason: "\(rule) denies"), rule: rule)
    }
}

/// One rule as a decision reads it; the resource pattern is the one it is filed under.
struct IndexedRule: Sendable {
    /// What `subject` holds: `*` (any subject, and none), a name, a pattern, or a group's name.
    enum SubjectKind: Sendable {
        case any, exact, pattern, group
    }

    var subject: String
    /// Pattern ids.
    var resource: Int32
    var action: Int32
    var line: Int32
    var subjectKind: SubjectKind
    var effect: RulesFile.Effect
    var hasConditions: Bool

    var writtenSubject: String { subjectKind == .group ? "@" + subject : subject }
}

/// A decision under way: the first matching line of each effect so far.
private struct Search {
    let file: RulesFile
    let request: AccessRequest
    var deny = Int32.max
    var allow = Int32.max
    /// The subject's groups, read once a rule names a group.
    lazy var memberOf: Set<String> = request.subject.map(file.groups.groups(of:)) ?? []

    /// Takes the matching rules of the matching resource pattern `pattern`.
    mutating func visit(pattern: Int) {
        let positions = file.starts[pattern]..<file.starts[pattern + 1]
        guard positions.count > RulesFile.scanLimit, let filed = file.filed[Int32(pattern)] else {
            for position in positions { consider(position) }
            return
        }
        guard let subject = request.subject else {
            for position in filed.others { consider(position) }
            return
        }
        for position in filed.exact[subject] ?? [] { consider(position) }
        for position in filed.others { consider(position) }
        guard !filed.groups.isEmpty else { return }
        // Whichever is smaller: the subject's groups, or the groups rules are filed under.
        let memberOf = self.memberOf
        if memberOf.count < filed.groups.count {
            for group in memberOf {
                for position in filed.groups[group] ?? [] { consider(position) }
            }
        } else {
            for (group, positions) in filed.groups where memberOf.contains(group) {
                for position in positions { consider(position) }
            }
        }
    }

    /// Takes the rule at `position` if its subject, action and conditions match.
    private mutating func consider(_ position: Int32) {
        let rule = file.indexedRules[Int(position)]
        guard rule.line < (rule.effect == .deny ? deny : allow), subjectMatches(rule),
            AccessPlan.Pattern.matches(file.actions[Int(rule.action)], request.action.rawValue),
            !rule.hasConditions
                || (file.conditions[rule.line] ?? []).allSatisfy({ $0.holds(in: request) })
        else { return }
        switch rule.effect {
        case .deny: deny = rule.line
        case .allow: allow = rule.line
        }
    }

    private mutating func subjectMatches(_ rule: IndexedRule) -> Bool {
        guard let subject = request.subject else { return rule.subjectKind == .any }
        switch rule.subjectKind {
        case .any: return true
        case .exact: return AccessPlan.Pattern.sameBytes(rule.subject, subject)
        case .pattern: return AccessPlan.Pattern.matches(rule.subject, subject)
        case .group: return memberOf.contains(rule.subject)
        }
    }
}
