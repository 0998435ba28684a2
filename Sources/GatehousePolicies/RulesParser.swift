import GatehouseCore

/// Reads the lines of a rules file, in order, into what a ``RulesFile`` is built from, noting
/// the problem of each bad line and reading on.
struct RulesParser {
    var rules: [IndexedRule] = []
    /// The distinct patterns, by id, and their ids by spelling.
    private(set) var resources: [String] = []
    var resourceIDs: [String: Int32] = [:]
    private(set) var actions: [String] = []
    private var actionIDs: [String: Int32] = [:]
    /// The conditions of each rule that has some, by line.
    private(set) var conditions: [Int32: [RuleCondition]] = [:]
    private(set) var groups = RuleGroups()
    private(set) var endLine: Int?
    private(set) var problems: [RulesFileError.Issue] = []
    private var sawComment = false
    private var sawGroup = false
    private var sawLineAfterEnd = false

    init(lineCount: Int) {
        rules.reserveCapacity(lineCount)
        resources.reserveCapacity(lineCount)
        resourceIDs.reserveCapacity(lineCount)
    }

    /// Whether no line said anything: no rule, group, comment or `end`, and no bad line.
    var isEmpty: Bool {
        rules.isEmpty && !sawGroup && !sawComment && endLine == nil && problems.isEmpty
    }

    /// Reads one line; a bad line adds its problem to ``problems``.
    mutating func read(_ line: RulesLine) {
        let fields = line.fields
        if fields[0] == "#" {
            sawComment = true
            return
        }
        do throws(RuleSyntaxError) {
            if fields.count == 1 && fields[0] == "end" {
                if let endLine {
                    throw RuleSyntaxError(
                        "a second end line (the first is line \(endLine)); a file has one, last")
                }
                endLine = line.number
                return
            }
            if let endLine, !sawLineAfterEnd {
                // Said once: the lines after it are read for their own problems.
                sawLineAfterEnd = true
                throw RuleSyntaxError("a line after the end line (line \(endLine)); the end line comes last")
            }
            switch fields[0] {
            case "allow": try readRule(fields, effect: .allow, line: line.number)
            case "deny": try readRule(fields, effect: .deny, line: line.number)
            case "group": try readGroup(fields, line: line.number)
            default:
                let keywords = ["allow", "deny", "group", "end"]
                let hint = closestName(to: fields[0], among: keywords, within: min(2, fields[0].count - 1))
                throw RuleSyntaxError(
                    "unknown effect \"\(fields[0])\"; expected allow, deny or group"
                        + (hint.map { "; did you mean \"\($0)\"?" } ?? ""))
            }
        } catch {
            problems.append(.init(line: line.number, kind: .malformed, message: error.message))
        }
    }

    /// `EFFECT SUBJECT ACTION RESOURCE [if KEY=VALUE ...]`.
    private mutating func readRule(_ fields: [String], effect: RulesFile.Effect, line: Int)
        throws(RuleSyntaxError)
    {
        guard fields.count >= 4 else {
            throw RuleSyntaxError(
                "expected 4 fields (effect subject action resource), found \(fields.count)")
        }
        var conditions: [RuleCondition] = []
        if fields.count > 4 {
            if fields[4].utf8.first == UInt8(ascii: "#") {
                throw RuleSyntaxError(
                    "a comment after a rule; a comment is a line of its own, starting with \"#\"")
            }
            guard fields[4] == "if" else {
                throw RuleSyntaxError(
                    "expected 4 fields (effect subject action resource), then optionally \"if\" and "
                        + "conditions KEY=VALUE; found \"\(fields[4])\" as field 5")
            }
            guard fields.count > 5 else {
                throw RuleSyntaxError("\"if\" with no condition; write conditions KEY=VALUE after it")
            }
            conditions = try fields[5...].map { (field) throws(RuleSyntaxError) in
                try RuleCondition(field[...])
            }
        }
        let (subject, kind) = try subject(fields[1], line: line)
        try Self.refuseBraces(fields[2], field: "action")
        do {
            try PatternSyntax.checkPlaceholders(fields[3][...])
        } catch {
            throw RuleSyntaxError("the resource \"\(fields[3])\" has \(error.message)")
        }
        let number = Int32(clamping: line)
        if !conditions.isEmpty { self.conditions[number] = conditions }
        rules.append(
            IndexedRule(
                subject: subject, resource: Self.id(of: fields[3], in: &resourceIDs, &resources),
                action: Self.id(of: fields[2], in: &actionIDs, &actions), line: number, subjectKind: kind,
                effect: effect, hasConditions: !conditions.isEmpty))
    }

    private static func id(of text: String, in ids: inout [String: Int32], _ list: inout [String]) -> Int32 {
        let id = ids.value(for: text, inserting: Int32(list.count))
        if id == list.count { list.append(text) }
        return id
    }

    /// A rule's subject field: a group's name for `@NAME`, else the subject as written.
    private mutating func subject(_ field: String, line: Int) throws(RuleSyntaxError) -> (
        String, IndexedRule.SubjectKind
    ) {
        if field.utf8.first == UInt8(ascii: "@") {
            let name = try Self.groupName(String(field.unicodeScalars.dropFirst()), in: field)
            groups.reference(name, line: line)
            return (name, .group)
        }
        try Self.refuseBraces(field, field: "subject")
        if field == "*" { return (field, .any) }
        return (field, field.utf8.contains(AccessPlan.Pattern.star) ? .pattern : .exact)
    }

    /// `group NAME MEMBER...`.
    private mutating func readGroup(_ fields: [String], line: Int) throws(RuleSyntaxError) {
        guard fields.count >= 3 else {
            throw RuleSyntaxError("a group line needs a name and at least one member: group NAME MEMBER...")
        }
        let name = try Self.groupName(fields[1], in: fields[1])
        var subjects: [String] = []
        var members: [String] = []
        for member in fields[2...] {
            if member.utf8.first == UInt8(ascii: "@") {
                members.append(try Self.groupName(String(member.dropFirst()), in: member))
            } else if let bad = member.utf8.first(where: Self.memberForbidden.contains) {
                throw RuleSyntaxError(
                    "the group member \"\(member)\" holds \"\(Character(Unicode.Scalar(bad)))\"; a member is an "
                        + "exact subject or @GROUP")
            } else {
                subjects.append(member)
            }
        }
        groups.define(name, line: line, subjects: subjects, groups: members)
        sawGroup = true
    }

    /// `name`, written `written`, checked as a group name.
    private static func groupName(_ name: String, in written: String) throws(RuleSyntaxError) -> String {
        guard !name.isEmpty else {
            throw RuleSyntaxError("\"\(written)\" names no group; write @NAME")
        }
        if let bad = name.utf8.first(where: groupNameForbidden.contains) {
            throw RuleSyntaxError(
                "the group name \"\(name)\" holds \"\(Character(Unicode.Scalar(bad)))\"; a group name has no "
                    + "\"*\", \"@\", \"{\", \"}\" or \"=\"")
        }
        return name
    }

    /// Refuses a subject or action holding a brace: placeholders belong in resources and condition
    /// values only.
    private static func refuseBraces(_ value: String, field: String) throws(RuleSyntaxError) {
        if value.utf8.contains(where: {
            $0 == AccessPlan.Pattern.openBrace || $0 == AccessPlan.Pattern.closeBrace
        }) {
            throw RuleSyntaxError(
                "the \(field) \"\(value)\" holds a brace; placeholders such as {subject} may "
                    + "be used only in the resource and in condition values")
        }
    }

    private static let memberForbidden = Array("*@{}".utf8)
    private static let groupNameForbidden = Array("*@{}=".utf8)
}
