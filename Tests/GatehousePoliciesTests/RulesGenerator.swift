import GatehouseCore
import GatehouseTestSupport

/// Writes random valid rules files and random requests for them, from a seed.
///
/// Files hold groups nested several levels (a group may only name groups defined after it in a
/// hidden order, so there is never a cycle), groups given on several lines and used before or
/// after their lines, subjects with `*` and `@group`, action patterns, resources with `*` and
/// placeholders, `if` clauses with literal and placeholder values, comments, blank lines, tabs,
/// CRLF line ends and `end` lines. Requests come from inside and outside groups, without a
/// subject, with attributes absent, empty, `.`, `..`, or holding `/`, `*` or a control character, and with
/// resources made from a rule's pattern (so that rules match often) or not.
struct RulesGenerator {
    /// Which features the files use (groups, placeholders, conditions); without any, plain rules.
    struct Features {
        var groups: Bool
        var placeholders: Bool
        var conditions: Bool
        /// Whether a file's rules share a few resource patterns, so that one pattern has many
        /// rules (the engine files those by subject; see `RulesFile`).
        var manyRulesPerResource = false

        static let all = Features(groups: true, placeholders: true, conditions: true)
        static let plain = Features(groups: false, placeholders: false, conditions: false)
    }

    /// One generated file: its text and what requests are made from.
    struct File {
        var text: String
        /// The rules' fields, to make matching requests from.
        var rules: [Rule]
        /// The defined groups.
        var groups: [String]
        /// Every group's subjects, directly or through nested groups.
        var members: [String: Set<String>]
    }

    /// The fields of one generated rule.
    struct Rule {
        var subject: String
        var action: String
        var resource: String
        var conditions: [(key: String, value: String)]
    }

    static let subjects = ["alice", "bob", "carol", "dave", "erin", "frank", "gus"]
    static let groupNames = ["editors", "admins", "viewers", "ops", "g-1", "team.a", "staff_2", "all", "x"]
    static let attributeNames = ["tenant", "owner", "device", "org-id", "team.name", "x_1"]
    static let actions = ["read", "write", "delete", "list"]
    static let segments = ["docs", "users", "tenants", "a", "b", "x.txt", "t1", "alice"]
    static let values = ["t1", "t2", "alice", "bob", "managed", "yes", "*", "a*b", "x/y", ".", ".."]

    var random: SplitMix64
    let features: Features

    init(seed: UInt64, features: Features = .all) {
        random = SplitMix64(seed: seed)
        self.features = features
    }

    // MARK: - Files

    mutating func file() -> File {
        var groupLines: [String] = []
        var groups: [String] = []
        var memberLists: [String: [String]] = [:]
        var allMembers: [String: Set<String>] = [:]
        if features.groups && chance(4, in: 5) {
            // The order of `groups` is the hidden order that rules out cycles.
            groups = Array(
                Self.groupNames.shuffled(using: &random).prefix(int(in: 1...Self.groupNames.count)))
            for (index, group) in groups.enumerated() {
                let later = Array(groups[(index + 1)...])
                for lineIndex in 0..<int(in: 1...3) {
                    var members: [String] = []
                    // Often a chain to the next group, so that nesting runs deep.
                    if lineIndex == 0, let next = later.first, chance(2, in: 3) { members.append("@" + next) }
                    for _ in 0..<int(in: (members.isEmpty ? 1 : 0)...3) {
                        if let other = later.randomElement(using: &random), chance(1, in: 3) {
                            members.append("@" + other)
                        } else {
                            members.append(Self.subjects.randomElement(using: &random)!)
                        }
                    }
                    groupLines.append(line(["group", group] + members))
                    memberLists[group, default: []] += members
                }
            }
            // Later groups first, so that nested groups' members are known.
            for group in groups.reversed() {
                for member in memberLists[group] ?? [] {
                    if member.hasPrefix("@") {
                        allMembers[group, default: []].formUnion(allMembers[String(member.dropFirst())] ?? [])
                    } else {
                        allMembers[group, default: []].insert(member)
                    }
                }
            }
        }
        var ruleLines: [String] = []
        var rules: [Rule] = []
        var resourcePool: [String] = []
        if features.manyRulesPerResource {
            for _ in 0..<int(in: 1...3) { resourcePool.append(resourcePattern()) }
        }
        for _ in 0..<(features.manyRulesPerResource ? int(in: 20...60) : int(in: 1...25)) {
            var rule = Rule(
                subject: subjectPattern(groups: groups), action: actionPattern(),
                resource: resourcePool.randomElement(using: &random) ?? resourcePattern(), conditions: [])
            var fields = [chance(1, in: 3) ? "deny" : "allow", rule.subject, rule.action, rule.resource]
            if features.conditions && chance(1, in: 3) {
                fields.append("if")
                for _ in 0..<int(in: 1...3) {
                    let condition = (
                        key: Self.attributeNames.randomElement(using: &random)!, value: conditionValue()
                    )
                    rule.conditions.append(condition)
                    fields.append(condition.key + "=" + condition.value)
                }
            }
            rules.append(rule)
            ruleLines.append(line(fields))
        }
        // Rules and group lines interleaved at random: groups used before and after their lines.
        var lines = (groupLines + ruleLines).shuffled(using: &random)
        for _ in 0..<int(in: 0...4) {
            let extra = ["# a comment", "", "   ", "\t# indented comment", "#allow * * *"]
            lines.insert(extra.randomElement(using: &random)!, at: int(in: 0...lines.count))
        }
        if chance(1, in: 4) {
            lines.append("end")
            if chance(1, in: 2) { lines.append("# after the end") }
        }
        let newline = chance(1, in: 6) ? "\r\n" : "\n"
        var text = lines.joined(separator: newline)
        if chance(1, in: 2) { text += newline }
        return File(text: text, rules: rules, groups: groups, members: allMembers)
    }

    /// Fields joined by one or more blanks, sometimes after leading blanks.
    private mutating func line(_ fields: [String]) -> String {
        let separators = [" ", " ", "\t", "  ", " \t "]
        var text = chance(1, in: 8) ? "  " : ""
        for (index, field) in fields.enumerated() {
            if index > 0 { text += separators.randomElement(using: &random)! }
            text += field
        }
        return text
    }

    private mutating func subjectPattern(groups: [String]) -> String {
        if let group = groups.randomElement(using: &random), chance(2, in: 5) { return "@" + group }
        switch int(in: 0..<5) {
        case 0: return "*"
        case 1: return withStar(Self.subjects.randomElement(using: &random)!)
        case 2: return ["zed", "editors", "a/b"].randomElement(using: &random)!
        default: return Self.subjects.randomElement(using: &random)!
        }
    }

    private mutating func actionPattern() -> String {
        switch int(in: 0..<4) {
        case 0: return "*"
        case 1: return withStar(Self.actions.randomElement(using: &random)!)
        default: return Self.actions.randomElement(using: &random)!
        }
    }

    /// `word` with a random part replaced by `*` (never the whole word, never `**`).
    private mutating func withStar(_ word: String) -> String {
        let characters = Array(word)
        let start = int(in: 0..<characters.count)
        let end = int(in: start...characters.count)
        let result = String(characters[..<start]) + "*" + String(characters[end...])
        return result == "*" ? word : result
    }

    private mutating func resourcePattern() -> String {
        var parts: [String] = []
        for _ in 0..<int(in: 1...3) {
            switch int(in: 0..<6) {
            case 0: parts.append("*")
            case 1 where features.placeholders: parts.append(placeholder())
            case 2 where features.placeholders:
                let mixed = [
                    "p" + placeholder(), placeholder() + "*", placeholder() + "-" + placeholder(),
                    "*" + placeholder(),
                ]
                parts.append(mixed.randomElement(using: &random)!)
            case 3: parts.append(withStar(Self.segments.randomElement(using: &random)!))
            default: parts.append(Self.segments.randomElement(using: &random)!)
            }
        }
        return parts.joined(separator: "/")
    }

    private mutating func placeholder() -> String {
        chance(1, in: 3) ? "{subject}" : "{" + Self.attributeNames.randomElement(using: &random)! + "}"
    }

    private mutating func conditionValue() -> String {
        switch int(in: 0..<5) {
        case 0: return "{subject}"
        case 1: return placeholder()
        case 2: return "u-" + placeholder()
        default: return Self.values.randomElement(using: &random)!
        }
    }

    // MARK: - Requests

    /// A request: most often one made to match a random rule (whose fields are then sometimes
    /// spoiled), else one made at random.
    mutating func request(for file: File) -> AccessRequest {
        var request = randomRequest(for: file)
        guard let rule = file.rules.randomElement(using: &random), chance(4, in: 5) else { return request }
        if rule.subject.hasPrefix("@") {
            // Sorted: a `Set`'s order changes from run to run.
            let members = (file.members[String(rule.subject.dropFirst())] ?? []).sorted()
            if let member = members.randomElement(using: &random), chance(7, in: 8) {
                request.subject = member
            }
        } else if rule.subject != "*" && chance(7, in: 8) {
            request.subject = instance(of: rule.subject, subject: nil, attributes: [:])
        }
        if chance(7, in: 8) {
            request.action = AccessAction(
                rawValue: rule.action == "*"
                    ? Self.actions.randomElement(using: &random)!
                    : instance(of: rule.action, subject: nil, attributes: [:]))
        }
        for condition in rule.conditions where chance(7, in: 8) {
            request.attributes[condition.key] = instance(
                of: condition.value, subject: request.subject, attributes: request.attributes,
                starsAreText: true)
        }
        request.resource = instance(
            of: rule.resource, subject: request.subject, attributes: request.attributes)
        return request
    }

    private mutating func randomRequest(for file: File) -> AccessRequest {
        let subject: String?
        switch int(in: 0..<40) {
        case 0..<5: subject = nil
        case 5: subject = ""
        case 6: subject = "a/b"
        case 7: subject = "al*"
        case 8: subject = "*"
        case 9: subject = "zed"
        case 10: subject = file.groups.randomElement(using: &random) ?? "editors"
        case 11: subject = "a\u{7}"
        default: subject = Self.subjects.randomElement(using: &random)!
        }
        var attributes: [String: String] = [:]
        for name in Self.attributeNames where !chance(1, in: 3) {
            switch int(in: 0..<14) {
            case 0: attributes[name] = ""
            case 1: attributes[name] = "a/b"
            case 2: attributes[name] = "a\u{1}b"
            case 3: attributes[name] = subject ?? "alice"
            case 4: attributes[name] = "u-" + (subject ?? "alice")
            default: attributes[name] = Self.values.randomElement(using: &random)!
            }
        }
        let action =
            chance(1, in: 8)
            ? ["re", "writes", "x"].randomElement(using: &random)!
            : Self.actions.randomElement(using: &random)!
        let resource = (0..<int(in: 1...3)).map { _ in Self.segments.randomElement(using: &random)! }
            .joined(separator: "/")
        return AccessRequest(subject: subject, action: action, resource: resource, attributes: attributes)
    }

    /// A text the pattern may match: each `*` replaced by some text (unless stars are text), each
    /// placeholder by the request's value (or other text when that value is not usable).
    private mutating func instance(
        of pattern: String, subject: String?, attributes: [String: String], starsAreText: Bool = false
    ) -> String {
        var result = ""
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*" where !starsAreText:
                result += ["x", "ab", "a/b", "*", "t1", "alice", "s"].randomElement(using: &random)!
            case "{":
                let close = characters.firstIndex(of: "}")!
                let name = String(characters[..<close])
                characters = characters[(close + 1)...]
                let value = name == "subject" ? subject : attributes[name]
                if let value, !value.isEmpty, !value.unicodeScalars.contains(where: ReferenceRules.isControl),
                    chance(7, in: 8)
                {
                    result += value
                } else {
                    result += "x"
                }
            default:
                result.append(character)
            }
        }
        return result
    }

    // MARK: - Dice

    private mutating func int(in range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ count: Int, in total: Int) -> Bool { int(in: 0..<total) < count }
}
