import GatehouseCore

/// The parsed and indexed contents of one version of a rules file: an immutable snapshot that
/// ``FilePolicy`` decides with.
///
/// Format, one rule per line, fields separated by spaces or tabs:
/// ```
/// # effect  subject  action  resource
/// allow     alice    read    avatars/alice/*
/// deny      *        *       avatars/*/private-*
/// ```
/// A line whose first non-blank character is `#` is a comment; blank lines are ignored; `\r`
/// counts as a blank so CRLF files work. `effect` is `allow` or `deny` (lower case). `subject`,
/// `action` and `resource` are patterns as in ``AllowList``; the subject `*` also matches a
/// request without a subject.
///
/// A decision looks each field up in a `PatternIndex` and then probes a table keyed by the
/// matching (resource, subject, action) pattern ids, so its cost depends on how many patterns
/// match the request, not on how many rules the file has.
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
    package let fileName: String
    /// The indexed rules, in one immutable object so a copy of a `RulesFile` costs one retain.
    private let contents: Contents

    /// How many rules (non-blank, non-comment lines) the file has.
    package var ruleCount: Int { contents.ruleCount }

    /// Parses rules from text.
    ///
    /// - Throws: ``RulesFileError`` naming the first bad line.
    package static func parse(_ text: String, fileName: String) throws -> RulesFile {
        try parse(Array(text.utf8), fileName: fileName)
    }

    /// Parses rules from the bytes of a file, which must be UTF-8.
    ///
    /// - Throws: ``RulesFileError`` naming the first bad line.
    package static func parse(_ bytes: [UInt8], fileName: String) throws -> RulesFile {
        var parser = Parser(fileName: fileName)
        try bytes.withUnsafeBufferPointer { try parser.parseLines($0) }
        return RulesFile(fileName: fileName, contents: Contents(parser))
    }

    /// The rule that decides `request`: the first matching `deny` if any, else the first
    /// matching `allow`, else `nil` (no rule matches, which denies).
    package func decide(_ request: AccessRequest) -> Verdict? {
        decide(subject: request.subject, action: request.action, resource: request.resource)
    }

    /// The rule that decides a request with these fields; see `decide(_:)`.
    package func decide(subject: String?, action: String, resource: String) -> Verdict? {
        contents.decide(subject: subject, action: action, resource: resource)
    }
}

/// The indexed rules of one file version; never changed after parsing.
private final class Contents: Sendable {
    let ruleCount: Int
    let resources: PatternIndex
    let subjects: PatternIndex
    let actions: PatternIndex
    /// The first line of each effect for each distinct (resource, subject, action) triple.
    let firstLines: FirstLineTable
    /// The id of the subject pattern `*`, the only one that matches a request without subject.
    let anySubject: Int32?

    init(_ parser: Parser) {
        ruleCount = parser.ruleCount
        resources = parser.resources
        subjects = parser.subjects
        actions = parser.actions
        firstLines = parser.firstLines
        anySubject = parser.subjects.id(of: "*").map { Int32($0) }
    }

    func decide(subject: String?, action: String, resource: String) -> RulesFile.Verdict? {
        var subjectIDs = MatchedIDs()
        if let subject {
            subjects.forEachMatch(of: subject) { id in
                subjectIDs.append(Int32(id))
                return false
            }
        } else if let anySubject {
            subjectIDs.append(anySubject)
        }
        guard subjectIDs.count > 0 else { return nil }
        var actionIDs = MatchedIDs()
        actions.forEachMatch(of: action) { id in
            actionIDs.append(Int32(id))
            return false
        }
        guard actionIDs.count > 0 else { return nil }
        var best = FirstLines()
        resources.forEachMatch(of: resource) { resourceID in
            subjectIDs.forEachID { subjectID in
                actionIDs.forEachID { actionID in
                    let key = RuleKey(resource: Int32(resourceID), subject: subjectID, action: actionID)
                    if let lines = firstLines.lines(for: key) {
                        best.deny = min(best.deny, lines.deny)
                        best.allow = min(best.allow, lines.allow)
                    }
                }
            }
            return false
        }
        if best.deny != FirstLines.absent {
            return RulesFile.Verdict(effect: .deny, line: Int(best.deny))
        }
        if best.allow != FirstLines.absent {
            return RulesFile.Verdict(effect: .allow, line: Int(best.allow))
        }
        return nil
    }
}

/// Pattern ids gathered during one decision: the first eight inline, so a decision with few
/// matching patterns allocates nothing; any more in an array.
private struct MatchedIDs {
    private var inline: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var overflow: [Int32] = []
    private(set) var count = 0

    mutating func append(_ id: Int32) {
        if count < 8 {
            withUnsafeMutableBytes(of: &inline) {
                $0.storeBytes(of: id, toByteOffset: count * 4, as: Int32.self)
            }
        } else {
            overflow.append(id)
        }
        count += 1
    }

    func forEachID(_ body: (Int32) -> Void) {
        withUnsafeBytes(of: inline) { raw in
            for index in 0..<Swift.min(count, 8) {
                body(raw.load(fromByteOffset: index * 4, as: Int32.self))
            }
        }
        for id in overflow {
            body(id)
        }
    }
}

/// Reads rule lines into indexes.
private struct Parser {
    let fileName: String
    var ruleCount = 0
    var resources = PatternIndex()
    var subjects = PatternIndex()
    var actions = PatternIndex()
    var firstLines = FirstLineTable()

    init(fileName: String) {
        self.fileName = fileName
    }

    // MARK: - Parsing

    mutating func parseLines(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count {
            lineNumber += 1
            var lineEnd = lineStart
            var isASCII = true
            while lineEnd < bytes.count && bytes[lineEnd] != Self.newline {
                if bytes[lineEnd] >= 0x80 { isASCII = false }
                lineEnd += 1
            }
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            if !isASCII && !Self.isValidUTF8(line) {
                throw RulesFileError(
                    file: fileName, line: lineNumber, kind: .notUTF8,
                    message: "not valid UTF-8; save the file as UTF-8")
            }
            try parseLine(line, number: lineNumber)
            lineStart = lineEnd + 1
        }
    }

    private mutating func parseLine(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws {
        // The first four fields' ranges, and how many fields there are in all.
        var fields = (0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0
        var index = 0
        while index < line.count {
            while index < line.count && Self.isBlank(line[index]) { index += 1 }
            guard index < line.count else { break }
            if count == 0 && line[index] == Self.hash { return }
            let start = index
            while index < line.count && !Self.isBlank(line[index]) { index += 1 }
            switch count {
            case 0: fields.0 = start..<index
            case 1: fields.1 = start..<index
            case 2: fields.2 = start..<index
            case 3: fields.3 = start..<index
            default: break
            }
            count += 1
        }
        if count == 0 { return }
        guard count == 4 else {
            throw RulesFileError(
                file: fileName, line: number, kind: .malformed,
                message: "expected 4 fields (effect subject action resource), found \(count)")
        }
        let effectBytes = UnsafeBufferPointer(rebasing: line[fields.0])
        let effect: RulesFile.Effect
        if effectBytes.elementsEqual("allow".utf8) {
            effect = .allow
        } else if effectBytes.elementsEqual("deny".utf8) {
            effect = .deny
        } else {
            let found = String(decoding: effectBytes, as: UTF8.self)
            throw RulesFileError(
                file: fileName, line: number, kind: .malformed,
                message: "unknown effect \"\(found)\"; expected allow or deny")
        }
        let key = RuleKey(
            resource: Int32(resources.insert(bytes: UnsafeBufferPointer(rebasing: line[fields.3]))),
            subject: Int32(subjects.insert(bytes: UnsafeBufferPointer(rebasing: line[fields.1]))),
            action: Int32(actions.insert(bytes: UnsafeBufferPointer(rebasing: line[fields.2]))))
        let lineNumber = Int32(clamping: number)
        firstLines.record(effect, line: lineNumber, for: key)
        ruleCount += 1
    }

    private static let newline = UInt8(ascii: "\n")
    private static let hash = UInt8(ascii: "#")

    /// Space, tab, carriage return, vertical tab and form feed separate fields.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D && byte != 0x0A)
    }

    /// Decoding replaces every invalid sequence with U+FFFD, so the bytes survive a round trip
    /// exactly when they were valid UTF-8.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
    }
}

/// The pattern ids of one rule's resource, subject and action.
private struct RuleKey: Hashable, Sendable {
    var resource: Int32
    var subject: Int32
    var action: Int32

    var hash: UInt64 {
        (UInt64(UInt32(bitPattern: resource)) &* 0x9e37_79b9_7f4a_7c15)
            ^ (UInt64(UInt32(bitPattern: subject)) &* 0xc2b2_ae3d_27d4_eb4f)
            ^ (UInt64(UInt32(bitPattern: action)) &* 0x1656_67b1_9e37_79f9)
    }
}

/// The first line of an `allow` and of a `deny` rule for one key; `absent` when there is none.
private struct FirstLines: Sendable {
    static let absent = Int32.max
    var deny = absent
    var allow = absent
}

/// First lines by rule key: a `HashSlots` table of chain heads, collisions checked by key.
private struct FirstLineTable: Sendable {
    private var heads = HashSlots()
    private var keys: [RuleKey] = []
    private var lines: [FirstLines] = []
    private var next: [Int32] = []

    func lines(for key: RuleKey) -> FirstLines? {
        var entry = heads.value(for: key.hash) ?? -1
        while entry >= 0 {
            if keys[Int(entry)] == key { return lines[Int(entry)] }
            entry = next[Int(entry)]
        }
        return nil
    }

    mutating func record(_ effect: RulesFile.Effect, line: Int32, for key: RuleKey) {
        let hash = key.hash
        var entry = heads.value(for: hash) ?? -1
        while entry >= 0 && keys[Int(entry)] != key {
            entry = next[Int(entry)]
        }
        if entry < 0 {
            entry = Int32(keys.count)
            keys.append(key)
            lines.append(FirstLines())
            next.append(heads.updateValue(entry, for: hash) ?? -1)
        }
        switch effect {
        case .allow: lines[Int(entry)].allow = min(lines[Int(entry)].allow, line)
        case .deny: lines[Int(entry)].deny = min(lines[Int(entry)].deny, line)
        }
    }
}
