import GatehouseCore
import GatehousePolicies

/// An independent, deliberately naive model of the rules format (docs/policies.md), groups,
/// placeholders and conditions included, for comparing the engine against.
///
/// It reads the text line by line, keeps every rule in a list, looks group membership up by a
/// plain recursive search, substitutes placeholders and matches with a dynamic program over
/// bytes, and decides by scanning every rule. Nothing here is shared with the engine. It checks
/// the structure of the format (fields, names, braces, `if` clauses, groups, cycles, the `end`
/// line) but not its character rules (it is fed ASCII).
struct ReferenceRules {
    /// One rule line.
    struct Rule {
        var effect: RulesFile.Effect
        var subject: String
        var action: String
        var resource: String
        var conditions: [(key: String, value: String)]
        var line: Int

        /// The patterns taken apart once, when the line is read.
        fileprivate var subjectTokens: [Token] = []
        fileprivate var actionTokens: [Token] = []
        fileprivate var resourcePieces: [Piece] = []
        fileprivate var conditionPieces: [(key: String, value: [Piece])] = []
    }

    /// Why the model finds a text malformed: the line and a short note (not the engine's wording).
    struct Malformed: Error, CustomStringConvertible {
        var line: Int
        var note: String
        var description: String { "line \(line): \(note)" }
    }

    /// The rules, in file order.
    private(set) var rules: [Rule] = []
    /// Every group's members, from all of its lines, in file order.
    private(set) var groups: [String: [String]] = [:]
    /// The first line of each group.
    private(set) var groupLines: [String: Int] = [:]

    /// Reads `text`.
    ///
    /// - Throws: `Malformed` for a text the format calls malformed.
    init(parsing text: String) throws {
        // Split on the newline byte: Swift's `Character` would join "\r\n" into one.
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        var endLine: Int?
        var references: [(group: String, line: Int)] = []
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            var line = rawLine
            if line.hasSuffix("\r") { line.removeLast() }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = fields.first else { continue }
            if first.hasPrefix("#") { continue }
            if endLine != nil {
                throw Malformed(line: number, note: "a line after the end line")
            }
            if fields == ["end"] {
                endLine = number
                continue
            }
            if first == "group" {
                guard fields.count >= 3 else {
                    throw Malformed(line: number, note: "a group without members")
                }
                let name = fields[1]
                guard Self.isGroupName(name) else { throw Malformed(line: number, note: "bad group name") }
                for member in fields[2...] {
                    if member.hasPrefix("@") {
                        let other = String(member.dropFirst())
                        guard Self.isGroupName(other) else {
                            throw Malformed(line: number, note: "bad group reference \(member)")
                        }
                        references.append((other, number))
                    } else if member.contains(where: { "*{}@".contains($0) }) {
                        throw Malformed(line: number, note: "bad member \(member)")
                    }
                }
                groups[name, default: []] += fields[2...]
                if groupLines[name] == nil { groupLines[name] = number }
                continue
            }
            let effect: RulesFile.Effect
            switch first {
            case "allow": effect = .allow
            case "deny": effect = .deny
            default: throw Malformed(line: number, note: "unknown effect")
            }
            guard fields.count == 4 || (fields.count >= 6 && fields[4] == "if") else {
                throw Malformed(line: number, note: "expected 4 fields or an if clause with conditions")
            }
            let subject = fields[1]
            if subject.hasPrefix("@") {
                let name = String(subject.dropFirst())
                guard Self.isGroupName(name) else { throw Malformed(line: number, note: "bad @ subject") }
                references.append((name, number))
            } else if subject.contains(where: { "{}".contains($0) }) {
                throw Malformed(line: number, note: "braces in the subject")
            }
            guard !fields[2].contains(where: { "{}".contains($0) }) else {
                throw Malformed(line: number, note: "braces in the action")
            }
            guard Self.pieces(fields[3]) != nil else {
                throw Malformed(line: number, note: "braces that are no placeholder in the resource")
            }
            var conditions: [(key: String, value: String)] = []
            for field in fields.dropFirst(5) {
                guard let equals = field.firstIndex(of: "=") else {
                    throw Malformed(line: number, note: "a condition without =")
                }
                let key = String(field[..<equals])
                let value = String(field[field.index(after: equals)...])
                guard Self.isAttributeName(key), !value.isEmpty, Self.pieces(value) != nil else {
                    throw Malformed(line: number, note: "a bad condition \(field)")
                }
                conditions.append((key, value))
            }
            rules.append(
                Rule(
                    effect: effect, subject: subject, action: fields[2], resource: fields[3],
                    conditions: conditions, line: number, subjectTokens: Self.tokens(ofPattern: subject),
                    actionTokens: Self.tokens(ofPattern: fields[2]), resourcePieces: Self.pieces(fields[3])!,
                    conditionPieces: conditions.map { ($0.key, Self.pieces($0.value)!) }))
        }
        for reference in references where groups[reference.group] == nil {
            throw Malformed(line: reference.line, note: "undefined group \(reference.group)")
        }
        for name in groups.keys.sorted() where isInCycle(name) {
            throw Malformed(line: groupLines[name]!, note: "group cycle through \(name)")
        }
    }

    // MARK: - Deciding

    /// The first matching deny, else the first matching allow, else `nil`: every rule scanned.
    func decide(_ request: AccessRequest) -> RulesFile.Verdict? {
        let bytes = RequestBytes(
            subject: request.subject.map { Array($0.utf8) }, action: Array(request.action.rawValue.utf8),
            resource: Array(request.resource.utf8))
        let matching = rules.filter { matches($0, request, bytes) }
        if let deny = matching.first(where: { $0.effect == .deny }) {
            return RulesFile.Verdict(effect: .deny, line: deny.line)
        }
        if let allow = matching.first(where: { $0.effect == .allow }) {
            return RulesFile.Verdict(effect: .allow, line: allow.line)
        }
        return nil
    }

    /// The request's fields as bytes, made once for all rules.
    private struct RequestBytes {
        var subject: [UInt8]?
        var action: [UInt8]
        var resource: [UInt8]
    }

    /// Whether `rule` matches `request`: subject, action, resource and every condition.
    private func matches(_ rule: Rule, _ request: AccessRequest, _ bytes: RequestBytes) -> Bool {
        guard Self.match(rule.actionTokens, bytes.action) else { return false }
        guard subjectMatches(rule, request.subject, bytes.subject) else { return false }
        guard let resource = Self.expand(rule.resourcePieces, request) else { return false }
        guard Self.match(resource, bytes.resource) else { return false }
        for condition in rule.conditionPieces {
            // Every placeholder is substituted and checked, and the value compared exactly
            // (its `*` included).
            guard let expected = Self.expand(condition.value, request, starsAreText: true),
                let actual = request.attributes[condition.key]
            else { return false }
            guard Array(actual.utf8) == expected.map(\.byte) else { return false }
        }
        return true
    }

    /// `*` alone also matches no subject; `@NAME` matches members only; other patterns match
    /// subjects only.
    private func subjectMatches(_ rule: Rule, _ subject: String?, _ subjectBytes: [UInt8]?) -> Bool {
        if rule.subject == "*" { return true }
        guard let subject, let subjectBytes else { return false }
        if rule.subject.hasPrefix("@") {
            var visited: Set<String> = []
            return isMember(subject, of: String(rule.subject.dropFirst()), visited: &visited)
        }
        return Self.match(rule.subjectTokens, subjectBytes)
    }

    /// Whether `subject` is listed in `group` or, recursively, in a group `group` lists.
    func isMember(_ subject: String, of group: String, visited: inout Set<String>) -> Bool {
        guard visited.insert(group).inserted else { return false }
        for member in groups[group] ?? [] {
            if member.hasPrefix("@") {
                if isMember(subject, of: String(member.dropFirst()), visited: &visited) { return true }
            } else if member == subject {
                return true
            }
        }
        return false
    }

    /// Whether following `@` members from `name` leads back to `name`.
    private func isInCycle(_ name: String) -> Bool {
        var seen: Set<String> = []
        var stack = [name]
        while let group = stack.popLast() {
            for member in groups[group] ?? [] where member.hasPrefix("@") {
                let other = String(member.dropFirst())
                if other == name { return true }
                if seen.insert(other).inserted { stack.append(other) }
            }
        }
        return false
    }

    // MARK: - Patterns

    /// A part of a pattern or value: a byte of text, a wildcard, or a placeholder.
    enum Piece: Equatable {
        case text(UInt8)
        case star
        case placeholder(String)
    }

    /// One position of a pattern ready to match: a byte to compare, or a wildcard.
    struct Token: Equatable {
        var byte: UInt8
        var isStar: Bool
    }

    /// The pieces of `text`, or `nil` when a brace does not form a `{NAME}` placeholder.
    static func pieces(_ text: String) -> [Piece]? {
        var result: [Piece] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "*"): result.append(.star)
            case UInt8(ascii: "}"): return nil
            case UInt8(ascii: "{"):
                guard let close = bytes.firstIndex(of: UInt8(ascii: "}")) else { return nil }
                let name = String(decoding: bytes[..<close], as: UTF8.self)
                guard isAttributeName(name) else { return nil }
                result.append(.placeholder(name))
                bytes = bytes[(close + 1)...]
            default: result.append(.text(byte))
            }
        }
        return result
    }

    /// The tokens of a pattern without placeholders.
    static func tokens(ofPattern pattern: String) -> [Token] {
        pattern.utf8.map { Token(byte: $0, isStar: $0 == UInt8(ascii: "*")) }
    }

    /// `pieces` with every placeholder replaced by its value as literal bytes, or `nil` when a
    /// value is missing, empty, `.` or `..`, or holds `/` or a control character.
    static func expand(_ pieces: [Piece], _ request: AccessRequest, starsAreText: Bool = false) -> [Token]? {
        var tokens: [Token] = []
        for piece in pieces {
            switch piece {
            case .text(let byte):
                tokens.append(Token(byte: byte, isStar: false))
            case .star:
                tokens.append(Token(byte: UInt8(ascii: "*"), isStar: !starsAreText))
            case .placeholder(let name):
                let value = name == "subject" ? request.subject : request.attributes[name]
                guard let value, !value.isEmpty, value != ".", value != "..", !value.contains("/"),
                    !value.unicodeScalars.contains(where: isControl)
                else { return nil }
                tokens += value.utf8.map { Token(byte: $0, isStar: false) }
            }
        }
        return tokens
    }

    /// Whether `tokens` match all of `text`: a `*` matches no byte, or one byte and is tried
    /// again; any other token matches its own byte.
    static func match(_ tokens: [Token], _ text: [UInt8]) -> Bool {
        match(tokens, from: 0, text, from: 0)
    }

    private static func match(_ tokens: [Token], from i: Int, _ text: [UInt8], from j: Int) -> Bool {
        guard i < tokens.count else { return j == text.count }
        if tokens[i].isStar {
            return match(tokens, from: i + 1, text, from: j)
                || (j < text.count && match(tokens, from: i, text, from: j + 1))
        }
        return j < text.count && text[j] == tokens[i].byte && match(tokens, from: i + 1, text, from: j + 1)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// A group name: non-empty, without `*`, `@`, `{`, `}` or `=`.
    static func isGroupName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(where: { "*@{}=".contains($0) })
    }

    /// An attribute name: letters, digits, `_`, `-` and `.`.
    static func isAttributeName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || ($0.isASCII && $0.isNumber) || "_-.".contains($0) }
    }
}
