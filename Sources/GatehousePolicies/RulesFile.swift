import Foundation
import GatehouseCore

/// The parsed and indexed contents of one version of a rules file: an immutable snapshot that
/// ``FilePolicy`` and ``RulesPolicy`` decide with.
///
/// Format, one line each, fields separated by spaces or tabs (the exact rules are in
/// docs/policies.md):
/// ```
/// # effect  subject   action  resource            [if KEY=VALUE ...]
/// group     editors   alice bob @admins
/// allow     @editors  write   docs/*
/// allow     *         read    users/{subject}/*
/// deny      *         *       exports/*           if device=unmanaged
/// end
/// ```
/// `#` first on a line starts a comment; an optional last line `end` marks the file complete.
/// A decision finds the matching subject, action and resource patterns in a `PatternIndex`
/// each, adds the groups the subject belongs to (kept from when the file was read, or, for a
/// subject deep in a long chain of groups, walked for: `GroupHierarchy`), and visits the rules
/// of each matching resource pattern (`RuleTable`), keeping those filed under a matching subject
/// or one of the subject's groups: its cost depends on how many patterns match the request (and,
/// for such a subject, how many groups it belongs to), not on how many rules or groups the file
/// has.
package struct RulesFile: Sendable {
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

        /// Creates a verdict.
        package init(effect: Effect, line: Int) {
            self.effect = effect
            self.line = line
        }
    }

    /// The file's name as used in reasons and errors, such as `avatars.rules`.
    package var fileName: String { contents.fileName }
    /// How many rules (lines starting with `allow` or `deny`) the file has.
    package var ruleCount: Int { contents.ruleCount }

    /// Everything in one immutable object, so that a copy of a `RulesFile` costs one retain.
    private let contents: Contents

    /// Parses rules from text.
    ///
    /// - Parameter requireEnd: Whether the rules must be followed by an `end` line; see
    ///   ``FilePolicy/requireEnd``.
    /// - Throws: ``RulesFileError`` naming the first bad line.
    package static func parse(_ text: String, fileName: String, requireEnd: Bool = false) throws -> RulesFile
    {
        try parse(Array(text.utf8), fileName: fileName, requireEnd: requireEnd)
    }

    /// Parses rules from the bytes of a file, which must be UTF-8 (a leading byte-order mark is
    /// dropped); patterns are normalized to Unicode NFC.
    ///
    /// - Parameter requireEnd: Whether the rules must be followed by an `end` line.
    /// - Throws: ``RulesFileError`` naming the first bad line; ``RulesFileError/Kind/incomplete``
    ///   when the text has no rule, group, comment or `end` line (a zero-byte file is what a
    ///   file being rewritten in place looks like), or lacks a required `end` line.
    package static func parse(_ bytes: [UInt8], fileName: String, requireEnd: Bool = false) throws
        -> RulesFile
    {
        let lexer = try RulesLexer(bytes, fileName: fileName)
        var parser = RulesParser(fileName: fileName, lineCount: lexer.lineCount)
        try lexer.forEachLine { try parser.read($0, in: $1) }
        if parser.isEmpty {
            let what = bytes.isEmpty ? "is empty (0 bytes)" : "holds no rule and no comment"
            throw RulesFileError(
                file: fileName, kind: .incomplete,
                message: "\(what), which is what a file being rewritten in place looks like; a file "
                    + "meant to hold no rules says so with a comment line")
        }
        if requireEnd && parser.endLine == nil {
            throw RulesFileError(
                file: fileName, kind: .incomplete,
                message: "has no end line, which this policy requires: the file may be a version "
                    + "still being written; finish it with a line \"end\"")
        }
        return RulesFile(contents: try Contents(parser))
    }

    /// The rule that decides `request`: the first matching `deny` if any, else the first
    /// matching `allow`, else `nil` (no rule matches, which denies).
    package func decide(_ request: AccessRequest) -> Verdict? {
        contents.decide(request)
    }

    /// The rule that decides a request with these fields and no attributes; see `decide(_:)`.
    package func decide(subject: String?, action: String, resource: String) -> Verdict? {
        decide(AccessRequest(subject: subject, action: AccessAction(rawValue: action), resource: resource))
    }

    /// The decision for `request`: allow, or a denial naming the deciding line
    /// (`"avatars.rules:3 denies"`) or saying that no rule allows.
    package func decision(for request: AccessRequest) -> AccessDecision {
        explanation(for: request).decision
    }

    /// ``decision(for:)`` with the deciding rule's file and line; no rule when none matches.
    package func explanation(for request: AccessRequest) -> AccessExplanation {
        explanation(of: decide(request))
    }

    /// `nil` when the rules allow `request`, otherwise ``explanation(for:)``: for a gate that
    /// needs no explanation of an allow.
    package func refusal(for request: AccessRequest) -> AccessExplanation? {
        let verdict = decide(request)
        return verdict?.effect == .allow ? nil : explanation(of: verdict)
    }

    /// The explanation of a verdict of ``decide(_:)``.
    private func explanation(of verdict: Verdict?) -> AccessExplanation {
        guard let verdict else {
            return AccessExplanation(.deny(reason: "no rule in \(fileName) allows"))
        }
        let rule = RuleReference(source: fileName, line: verdict.line)
        switch verdict.effect {
        case .allow:
            return AccessExplanation(.allow, rule: rule)
        case .deny:
            return AccessExplanation(.deny(reason: "\(rule) denies"), rule: rule)
        }
    }
}

/// The indexed rules of one file version; never changed after parsing.
private final class Contents: Sendable {
    let fileName: String
    let ruleCount: Int
    let subjects: PatternIndex
    let actions: PatternIndex
    let resources: PatternIndex
    /// The groups naming each subject, by the id of the subject's exact pattern in `subjects`,
    /// and the groups holding each group. Group members are added to `subjects` as exact
    /// patterns, so one lookup of the subject finds both its patterns and its groups.
    let groups: GroupHierarchy
    /// How many subject patterns rules name: ids below it. A group's members are inserted
    /// after the rules' subjects, so an id at or above it is named only by a group line.
    let namedSubjectCount: Int
    let rules: RuleTable
    /// The id of the subject pattern `*`, the only one that matches a request without subject.
    let anySubject: Int32?

    init(_ parser: RulesParser) throws {
        fileName = parser.fileName
        ruleCount = parser.ruleCount
        actions = parser.actions
        resources = parser.resources
        rules = parser.rules.build(resourceCount: parser.resources.count)
        anySubject = parser.subjects.id(of: "*").map(Int32.init)
        var subjects = parser.subjects
        let memberships = try parser.groups.memberships(fileName: parser.fileName)
        var members: [Int: [Int32]] = [:]
        for (member, groups) in memberships.subjects {
            members[subjects.insert(member)] = groups
        }
        self.subjects = subjects
        groups = GroupHierarchy(members: members, holders: memberships.holders, subjectCount: subjects.count)
        namedSubjectCount = parser.subjects.count
    }

    func decide(_ request: AccessRequest) -> RulesFile.Verdict? {
        // The subject keys: the subject patterns that match and that rules name, and the
        // subject's exact pattern when groups name it (at most one pattern, the exact one).
        var subjectKeys = MatchedIDs()
        var member: Int?
        if let subject = request.subject {
            let matched = subjects.matchedIDs(of: subject)
            for index in 0..<matched.count {
                let id = Int(matched[index])
                if id < namedSubjectCount { subjectKeys.append(Int32(id)) }
                if groups.hasGroups(subject: id) { member = id }
            }
        } else if let anySubject {
            subjectKeys.append(anySubject)
        }
        guard !subjectKeys.isEmpty || member != nil else { return nil }
        let actionIDs = actions.matchedIDs(of: request.action.rawValue)
        guard !actionIDs.isEmpty else { return nil }
        let resourceIDs = resources.matchedIDs(of: request.resource, values: request)
        guard !resourceIDs.isEmpty else { return nil }
        // The subject keys of every group the subject belongs to, ascending.
        var memberOf: ArraySlice<Int32> = []
        if let member { memberOf = groups.groupKeys(of: member) }
        var found = FoundLines()
        for resourceIndex in 0..<resourceIDs.count {
            let resource = resourceIDs[resourceIndex]
            let range = rules.rules(of: resource)
            if range.count <= RuleTable.scanLimit {
                // A few rules: read them all, keep those filed under one of the subject keys.
                for position in range {
                    let rule = rules[position]
                    let subject = rule.key.subject
                    let filed =
                        subject >= 0
                        ? subjectKeys.contains(subject) : Self.holds(subject, in: memberOf)
                    if filed { found.consider(rule, in: rules, actions: actionIDs, request: request) }
                }
                continue
            }
            for index in 0..<subjectKeys.count {
                found.consider(
                    rules.rules(RuleKey(resource: resource, subject: subjectKeys[index]), in: range),
                    in: rules, actions: actionIDs, request: request)
            }
            for key in memberOf {
                found.consider(
                    rules.rules(RuleKey(resource: resource, subject: key), in: range),
                    in: rules, actions: actionIDs, request: request)
            }
        }
        if found.deny != .max { return RulesFile.Verdict(effect: .deny, line: Int(found.deny)) }
        if found.allow != .max { return RulesFile.Verdict(effect: .allow, line: Int(found.allow)) }
        return nil
    }

    /// Whether the ascending `keys` hold `key` (a binary search: a subject may belong to
    /// thousands of groups).
    private static func holds(_ key: Int32, in keys: ArraySlice<Int32>) -> Bool {
        var low = keys.startIndex
        var high = keys.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if keys[middle] == key { return true }
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return false
    }
}

/// The first matching line of each effect, while a decision looks at the rules.
private struct FoundLines {
    var deny = Int32.max
    var allow = Int32.max

    /// Takes the rules at `positions` whose action and conditions match.
    mutating func consider(
        _ positions: Range<Int>, in rules: RuleTable, actions: MatchedIDs, request: AccessRequest
    ) {
        for position in positions {
            consider(rules[position], in: rules, actions: actions, request: request)
        }
    }

    /// Takes `rule` if its action and conditions match.
    mutating func consider(
        _ rule: IndexedRule, in rules: RuleTable, actions: MatchedIDs, request: AccessRequest
    ) {
        guard actions.contains(rule.action) && rules.conditionsHold(rule, request) else { return }
        switch rule.effect {
        case .deny: deny = min(deny, rule.line)
        case .allow: allow = min(allow, rule.line)
        }
    }
}
