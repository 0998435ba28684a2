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
/// A line whose first non-blank character is `#` is a comment; blank lines are ignored; a `\r`
/// before a newline is ignored so CRLF files work, and a leading byte-order mark is dropped.
/// `effect` is `allow` or `deny` (lower case). `subject`, `action` and `resource` are patterns
/// as in ``AllowList``, normalized to Unicode NFC; the subject `*` also matches a request
/// without a subject. A line holding a control character, a Unicode space, a bidirectional
/// control or a look-alike of `*` is malformed (see `PatternCharacters`). An optional last line
/// `end` marks the file complete; nothing but comments and blank lines may follow it.
///
/// A decision looks each field up in a `PatternIndex`, then checks the rules filed under each
/// matching resource pattern against the matching subject and action ids (a resource pattern
/// with more rules than there are matching pairs probes a table keyed by the three ids instead),
/// so its cost depends on how many patterns match the request, not on how many rules the file
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
    /// The name and the indexed rules, in one immutable object so that a copy of a `RulesFile`
    /// costs one retain.
    private let contents: Contents

    /// How many rules (non-blank, non-comment lines) the file has.
    package var ruleCount: Int { contents.ruleCount }

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
    ///   when the text has no rule, comment or `end` line (a zero-byte file is what a file being
    ///   rewritten in place looks like), or lacks a required `end` line.
    package static func parse(_ bytes: [UInt8], fileName: String, requireEnd: Bool = false) throws
        -> RulesFile
    {
        let prepared = try RulesText.prepare(bytes, fileName: fileName)
        var parser = Parser(fileName: fileName)
        try prepared.withUnsafeBufferPointer { try parser.parseLines($0) }
        if parser.ruleCount == 0 && !parser.sawComment && parser.endLine == nil {
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
        return RulesFile(contents: Contents(parser))
    }

    /// The rule that decides `request`: the first matching `deny` if any, else the first
    /// matching `allow`, else `nil` (no rule matches, which denies).
    package func decide(_ request: AccessRequest) -> Verdict? {
        decide(subject: request.subject, action: request.action, resource: request.resource)
    }

    /// The decision for `request`: allow, or a denial naming the deciding line
    /// (`"avatars.rules:3 denies"`) or saying that no rule allows.
    package func decision(for request: AccessRequest) -> AccessDecision {
        switch decide(request) {
        case .some(let verdict) where verdict.effect == .allow:
            return .allow
        case .some(let verdict):
            return .deny(reason: "\(fileName):\(verdict.line) denies")
        case .none:
            return .deny(reason: "no rule in \(fileName) allows")
        }
    }

    /// The rule that decides a request with these fields; see `decide(_:)`.
    package func decide(subject: String?, action: String, resource: String) -> Verdict? {
        contents.decide(subject: subject, action: action, resource: resource)
    }
}

/// The indexed rules of one file version; never changed after parsing.
private final class Contents: Sendable {
    let fileName: String
    let ruleCount: Int
    let resources: PatternIndex
    let subjects: PatternIndex
    let actions: PatternIndex
    /// The first line of each effect for each distinct (resource, subject, action) triple.
    let firstLines: FirstLineTable
    /// The same entries grouped by resource pattern: those of resource `r` are
    /// `byResource[byResourceStart[r]..<byResourceStart[r + 1]]`.
    let byResource: [ResourceRule]
    let byResourceStart: [Int32]
    /// The id of the subject pattern `*`, the only one that matches a request without subject.
    let anySubject: Int32?

    /// How many matching subject (and action) patterns a decision keeps on the stack; a request
    /// that matches more takes a slower path with arrays.
    private static let idsOnStack = 16

    init(_ parser: Parser) {
        fileName = parser.fileName
        ruleCount = parser.ruleCount
        resources = parser.resources
        subjects = parser.subjects
        actions = parser.actions
        firstLines = parser.firstLines
        anySubject = parser.subjects.id(of: "*").map { Int32($0) }
        var starts = [Int32](repeating: 0, count: parser.resources.count + 1)
        parser.firstLines.forEachEntry { key, _ in starts[Int(key.resource) + 1] += 1 }
        for resource in 0..<parser.resources.count {
            starts[resource + 1] += starts[resource]
        }
        var next = starts
        var entries = [ResourceRule](
            repeating: ResourceRule(subject: 0, action: 0, lines: FirstLines()), count: Int(starts.last!))
        parser.firstLines.forEachEntry { key, lines in
            entries[Int(next[Int(key.resource)])] = ResourceRule(
                subject: key.subject, action: key.action, lines: lines)
            next[Int(key.resource)] += 1
        }
        byResource = entries
        byResourceStart = starts
    }

    func decide(subject: String?, action: String, resource: String) -> RulesFile.Verdict? {
        let capacity = Self.idsOnStack
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * capacity) { ids in
            let subjectIDs = UnsafeMutableBufferPointer(rebasing: ids[0..<capacity])
            let actionIDs = UnsafeMutableBufferPointer(rebasing: ids[capacity..<2 * capacity])
            let resourceIDs = UnsafeMutableBufferPointer(rebasing: ids[2 * capacity..<3 * capacity])
            let subjectCount: Int?
            if let subject {
                subjectCount = subjects.collectMatches(of: subject, into: subjectIDs)
            } else if let anySubject {
                subjectIDs[0] = anySubject
                subjectCount = 1
            } else {
                subjectCount = 0
            }
            guard subjectCount != 0 else { return nil }
            let actionCount = actions.collectMatches(of: action, into: actionIDs)
            guard actionCount != 0 else { return nil }
            let resourceCount = resources.collectMatches(of: resource, into: resourceIDs)
            guard let subjectCount, let actionCount, let resourceCount else {
                return decideWithManyMatches(subject: subject, action: action, resource: resource)
            }
            return decide(
                subjectIDs: UnsafeBufferPointer(rebasing: subjectIDs[..<subjectCount]),
                actionIDs: UnsafeBufferPointer(rebasing: actionIDs[..<actionCount]),
                resourceIDs: UnsafeBufferPointer(rebasing: resourceIDs[..<resourceCount]))
        }
    }

    /// `decide` for a request whose fields match more patterns than fit on the stack.
    private func decideWithManyMatches(subject: String?, action: String, resource: String) -> RulesFile
        .Verdict?
    {
        let subjectIDs =
            subject.map { subjects.matches(of: $0).map { Int32(truncatingIfNeeded: $0) } }
            ?? anySubject.map { [$0] } ?? []
        let actionIDs = actions.matches(of: action).map { Int32(truncatingIfNeeded: $0) }
        let resourceIDs = resources.matches(of: resource).map { Int32(truncatingIfNeeded: $0) }
        return subjectIDs.withUnsafeBufferPointer { subjectIDs in
            actionIDs.withUnsafeBufferPointer { actionIDs in
                resourceIDs.withUnsafeBufferPointer { resourceIDs in
                    decide(subjectIDs: subjectIDs, actionIDs: actionIDs, resourceIDs: resourceIDs)
                }
            }
        }
    }

    /// The verdict among the rules whose patterns are in the given (matching) ids.
    private func decide(
        subjectIDs: UnsafeBufferPointer<Int32>, actionIDs: UnsafeBufferPointer<Int32>,
        resourceIDs: UnsafeBufferPointer<Int32>
    ) -> RulesFile.Verdict? {
        let pairs = subjectIDs.count &* actionIDs.count
        var best = FirstLines()
        byResourceStart.withUnsafeBufferPointer { starts in
            byResource.withUnsafeBufferPointer { rules in
                for resourceID in resourceIDs {
                    // In range: `resourceID` is an id of `resources`, `starts` has one more
                    // entry than there are ids, and its entries are indexes into `rules`.
                    let start = Int(starts[Int(resourceID)])
                    let end = Int(starts[Int(resourceID) &+ 1])
                    if end &- start <= pairs {
                        // Few rules for this resource: check each against the matched ids.
                        var index = start
                        while index < end {
                            let rule = rules[index]
                            if Self.holds(subjectIDs, rule.subject) && Self.holds(actionIDs, rule.action) {
                                best.merge(rule.lines)
                            }
                            index &+= 1
                        }
                    } else {
                        // Many rules: look up each matched (subject, action) pair instead.
                        firstLines.withLookup { firstLines in
                            for subjectID in subjectIDs {
                                for actionID in actionIDs {
                                    let key = RuleKey(
                                        resource: resourceID, subject: subjectID, action: actionID)
                                    if let lines = firstLines.lines(for: key) {
                                        best.merge(lines)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if best.deny != FirstLines.absent {
            return RulesFile.Verdict(effect: .deny, line: Int(best.deny))
        }
        if best.allow != FirstLines.absent {
            return RulesFile.Verdict(effect: .allow, line: Int(best.allow))
        }
        return nil
    }

    /// Whether `ids` holds `id`.
    @inline(__always)
    private static func holds(_ ids: UnsafeBufferPointer<Int32>, _ id: Int32) -> Bool {
        var index = 0
        while index < ids.count {
            if ids[index] == id { return true }
            index &+= 1
        }
        return false
    }
}

/// One (subject, action) pair of the rules for a resource pattern, with its first lines.
private struct ResourceRule: Sendable {
    var subject: Int32
    var action: Int32
    var lines: FirstLines
}

/// Reads rule lines into indexes.
private struct Parser {
    let fileName: String
    var ruleCount = 0
    var resources = PatternIndex()
    var subjects = PatternIndex()
    var actions = PatternIndex()
    var firstLines = FirstLineTable()
    /// Whether a comment line was read.
    var sawComment = false
    /// The line of the `end` line, once read.
    var endLine: Int?

    init(fileName: String) {
        self.fileName = fileName
    }

    // MARK: - Parsing

    mutating func parseLines(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let base = bytes.baseAddress else { return }
        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count {
            lineNumber += 1
            let (lineEnd, isASCII) = Self.endOfLine(base, from: lineStart, count: bytes.count)
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

    /// The index of the first newline in `base[start..<count]` (`count` if there is none), and
    /// whether the bytes before it are all ASCII. Reads 8 bytes at a time: a word XOR newlines
    /// has a zero byte at each newline, and the lowest byte the zero-byte test flags is one.
    private static func endOfLine(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> (Int, Bool) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits = ones &<< 7
        let newlines = ones &* UInt64(newline)
        var index = start
        var seen: UInt64 = 0
        while index &+ 8 <= count {
            let word = WordBytes.word(base, index)
            let difference = word ^ newlines
            let found = (difference &- ones) & ~difference & highBits
            if found != 0 {
                let offset = found.trailingZeroBitCount &>> 3
                let before = offset == 0 ? 0 : word & (~0 &>> (64 &- 8 &* UInt64(truncatingIfNeeded: offset)))
                return (index &+ offset, (seen | before) & highBits == 0)
            }
            seen |= word
            index &+= 8
        }
        while index < count && base[index] != newline {
            seen |= UInt64(base[index])
            index &+= 1
        }
        return (index, seen & highBits == 0)
    }

    private mutating func parseLine(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws {
        guard let base = line.baseAddress else { return }
        // The first four fields' ranges, and how many fields there are in all.
        var fields = (0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0
        var index = 0
        let end = line.count
        while index < end {
            // In range: `index < end` is checked before each read.
            while index < end && Self.isBlank(base[index]) { index &+= 1 }
            guard index < end else { break }
            if count == 0 && base[index] == Self.hash {
                sawComment = true
                return
            }
            let start = index
            index = Self.endOfField(base, from: index, end: end)
            switch count {
            case 0: fields.0 = start..<index
            case 1: fields.1 = start..<index
            case 2: fields.2 = start..<index
            case 3: fields.3 = start..<index
            default: break
            }
            count &+= 1
        }
        if count == 0 { return }
        if count == 1 && Self.spells(UnsafeBufferPointer(rebasing: line[fields.0]), "end") {
            if let endLine {
                throw RulesFileError(
                    file: fileName, line: number, kind: .malformed,
                    message: "a second end line (the first is line \(endLine)); a file has one, last")
            }
            endLine = number
            return
        }
        if let endLine {
            throw RulesFileError(
                file: fileName, line: number, kind: .malformed,
                message: "a rule after the end line (line \(endLine)); the end line comes last")
        }
        guard count == 4 else {
            throw RulesFileError(
                file: fileName, line: number, kind: .malformed,
                message: "expected 4 fields (effect subject action resource), found \(count)")
        }
        let effectBytes = UnsafeBufferPointer(rebasing: line[fields.0])
        let effect: RulesFile.Effect
        if Self.spells(effectBytes, "allow") {
            effect = .allow
        } else if Self.spells(effectBytes, "deny") {
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

    /// The index of the first blank in `base[start..<end]`, or `end`. Reads 8 bytes at a time:
    /// the zero-byte test with 0x21 flags every byte below 0x21 (all blanks are), and a flagged
    /// byte that is not a blank (another control byte, or a false flag above a true one) is
    /// passed over.
    @inline(__always)
    private static func endOfField(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits = ones &<< 7
        let limit = ones &* 0x21
        var index = start
        while index &+ 8 <= end {
            let word = WordBytes.word(base, index)
            var low = (word &- limit) & ~word & highBits
            while low != 0 {
                let candidate = index &+ (low.trailingZeroBitCount &>> 3)
                if isBlank(base[candidate]) { return candidate }
                low &= low &- 1
            }
            index &+= 8
        }
        while index < end && !isBlank(base[index]) { index &+= 1 }
        return index
    }

    /// Whether `bytes` are the ASCII word `word`.
    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount
            && WordBytes.equal(bytes.baseAddress!, word.utf8Start, count: bytes.count)
    }

    private static let newline = UInt8(ascii: "\n")
    private static let hash = UInt8(ascii: "#")

    /// Space, tab, carriage return, vertical tab and form feed separate fields.
    @inline(__always)
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
private struct RuleKey: Equatable, Sendable {
    var resource: Int32
    var subject: Int32
    var action: Int32

    /// The home slot in a table of `2^(64 - shift)` slots: the ids packed into one word,
    /// multiplied, and the product's top bits (where every bit of every id has reached).
    @inline(__always)
    func slot(_ shift: UInt64) -> Int {
        let packed =
            (UInt64(UInt32(bitPattern: resource)) | UInt64(UInt32(bitPattern: subject)) << 32)
            ^ (UInt64(UInt32(bitPattern: action)) &* 0xc2b2_ae3d_27d4_eb4f)
        return Int(truncatingIfNeeded: (packed &* 0x9e37_79b9_7f4a_7c15) &>> shift)
    }
}

/// The first line of an `allow` and of a `deny` rule for one key; `absent` when there is none.
private struct FirstLines: Sendable {
    static let absent = Int32.max
    var deny = absent
    var allow = absent

    /// Keeps the earlier line of each effect.
    mutating func merge(_ other: FirstLines) {
        deny = min(deny, other.deny)
        allow = min(allow, other.allow)
    }
}

/// First lines by rule key: open addressing with linear probing, key and lines in one 20-byte
/// slot, so a probe reads one place and compares the key itself (no hash to resolve).
private struct FirstLineTable: Sendable {
    fileprivate struct Slot: Sendable {
        /// `resource` is -1 in an empty slot.
        var key: RuleKey
        var lines: FirstLines
    }

    /// Lookups in a table whose storage was reached once.
    struct Lookup {
        fileprivate let slots: UnsafeBufferPointer<Slot>
        fileprivate let mask: Int
        fileprivate let shift: UInt64

        /// The first lines recorded for `key`, if any.
        @inline(__always)
        func lines(for key: RuleKey) -> FirstLines? {
            // In range: a slot number is below `slots.count`, `mask` is `slots.count - 1`, and
            // at most half the slots are full, so the walk reaches an empty slot.
            var index = key.slot(shift)
            while true {
                let slot = slots[index]
                if slot.key == key { return slot.lines }
                if slot.key.resource < 0 { return nil }
                index = (index &+ 1) & mask
            }
        }
    }

    private static let empty = Slot(key: RuleKey(resource: -1, subject: -1, action: -1), lines: FirstLines())

    private var slots = Array(repeating: Self.empty, count: 8)
    private var mask = 7
    private var shift: UInt64 = 61
    private var count = 0

    /// Calls `body` with lookups into the table.
    func withLookup<Result>(_ body: (Lookup) -> Result) -> Result {
        slots.withUnsafeBufferPointer { body(Lookup(slots: $0, mask: mask, shift: shift)) }
    }

    /// Calls `body` with every key and its first lines, in no particular order.
    func forEachEntry(_ body: (RuleKey, FirstLines) -> Void) {
        for slot in slots where slot.key.resource >= 0 {
            body(slot.key, slot.lines)
        }
    }

    mutating func record(_ effect: RulesFile.Effect, line: Int32, for key: RuleKey) {
        if (count + 1) * 2 > slots.count {
            grow()
        }
        var index = key.slot(shift)
        while slots[index].key.resource >= 0 && slots[index].key != key {
            index = (index + 1) & mask
        }
        if slots[index].key.resource < 0 {
            slots[index].key = key
            count += 1
        }
        switch effect {
        case .allow: slots[index].lines.allow = min(slots[index].lines.allow, line)
        case .deny: slots[index].lines.deny = min(slots[index].lines.deny, line)
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Self.empty, count: old.count * 2)
        mask = slots.count - 1
        shift -= 1
        for slot in old where slot.key.resource >= 0 {
            var index = slot.key.slot(shift)
            while slots[index].key.resource >= 0 {
                index = (index &+ 1) & mask
            }
            slots[index] = slot
        }
    }
}
