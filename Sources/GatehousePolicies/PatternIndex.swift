/// A set of patterns that answers "which patterns match this text?" without scanning them.
///
/// A pattern is an exact string, or contains `*`, which matches any run of characters (`/`
/// included, the empty run too); several `*` may appear (`avatars/*/private-*`). An index made
/// with placeholders also reads `{subject}` and `{NAME}` as values of the request (see
/// `Pattern`). Matching is on UTF-8 bytes: no Unicode normalization, no case folding.
///
/// Every distinct pattern gets an id, `0, 1, 2, ...` in order of first insertion; inserting the
/// same pattern again returns its existing id. Lookup cost does not grow with the number of
/// patterns:
/// - exact patterns sit in a dictionary keyed by a hash of their bytes: one look-up;
/// - the other patterns are grouped by their literal prefix (the bytes before the first `*` or
///   placeholder): one record per distinct prefix, in a dictionary keyed by a hash of the
///   prefix. A lookup hashes the text's prefixes in one pass, probing the dictionary only at
///   the prefix lengths some group has (and only where the text's byte could end one of those
///   prefixes), and compares a group's prefix with the text once for all of its patterns. So
///   it visits only the patterns whose prefix starts the text; the rest of each is matched run
///   by run, in at most `text × pattern` steps, never exponential time.
///
/// A hash only finds candidates; a match is always confirmed on the bytes themselves.
package struct PatternIndex: Sendable {
    /// What a pattern is, for the lookup.
    private enum Kind: Sendable {
        /// Literal text only.
        case exact
        /// A prefix and then only stars (`avatars/*`, `*`): matches every text that starts with
        /// the prefix, without looking further.
        case prefixOnly
        /// Literal text and stars, with literal text after a star.
        case glob
        /// With placeholders (kept as a `Pattern` in `templates`).
        case template
    }

    /// Every pattern by the hash of its whole spelling (for an exact pattern, the text it
    /// matches); patterns with the same hash are chained through `Entry.nextSpelling`.
    private var bySpelling = HashedIDs<UInt32>()
    /// Every pattern's UTF-8 bytes, back to back.
    private var bytes: [UInt8] = []
    /// What the lookup needs of each pattern, in one record (one place to read), by id.
    private var entries: [Entry] = []
    /// The patterns with placeholders, in the order added (`Entry.template` indexes it).
    private var templates: [Pattern] = []
    /// The patterns with a star or placeholder, one group per distinct literal prefix.
    private var groups: [Group] = []
    /// The groups with a non-empty prefix by the hash of their prefix; groups with the same
    /// hash are chained through `Group.nextWithHash`.
    private var groupsByHash = HashedIDs<UInt32>()
    /// The group of the patterns with an empty prefix (starting with `*` or a placeholder), or -1.
    private var emptyPrefixGroup: Int32 = -1
    /// How many patterns are exact: when none is, a lookup hashes the text only as far as the
    /// groups need and never probes the exact table.
    private var exactCount = 0
    /// The prefix lengths (above 0) some group has, ascending, each once.
    private var groupLengths: [GroupLength] = []
    private let placeholders: Bool

    /// A prefix length some group has, with a one-word filter of the bytes those prefixes end
    /// with, so that a lookup probes the table only where the text could start with one.
    private struct GroupLength: Sendable {
        var length: Int
        /// Bit `b % 64` is set for each byte `b` some prefix of this length ends with: when the
        /// text's byte at `length - 1` has its bit clear, no group of this length starts the
        /// text (a set bit only means it may; prefixes tend to end alike, such as with `/`).
        var lastBytes: UInt64
    }

    /// The bit of `byte` in `GroupLength.lastBytes`.
    private static func lastByteBit(_ byte: UInt8) -> UInt64 {
        1 << UInt64(byte & 63)
    }

    /// The patterns that share one literal prefix: the prefix is compared with the text once
    /// for all of them.
    private struct Group: Sendable {
        /// Where the prefix's bytes are in `bytes` (at the start of the group's first pattern).
        var start: Int32
        var length: Int32
        /// The group's first pattern; the others follow through `Entry.next`.
        var first: Int32
        /// The next group whose prefix has the same hash, or -1.
        var nextWithHash: Int32
    }

    /// One pattern as the lookup needs it.
    private struct Entry: Sendable {
        /// Where the pattern's bytes are in `bytes`.
        var start: Int32
        var end: Int32
        /// The number of literal bytes before the first star or placeholder.
        var prefixLength: Int32
        /// Where the last star is in `bytes`, or -1.
        var lastStar: Int32
        /// The next pattern in the same group, or -1 (always -1 for an exact pattern).
        var next: Int32
        /// The next pattern whose spelling has the same hash, or -1.
        var nextSpelling: Int32
        /// The pattern's place in `templates` when it has placeholders, or -1.
        var template: Int32
        var kind: Kind
    }

    /// Creates an empty index; `placeholders` makes braces form placeholders.
    package init(placeholders: Bool = false) {
        self.placeholders = placeholders
    }

    /// Creates an index of `patterns` (braces are literal text); ids follow the order of first
    /// appearance.
    package init(_ patterns: some Sequence<String>) {
        self.init()
        for pattern in patterns {
            insert(pattern)
        }
    }

    /// The number of distinct patterns.
    package var count: Int { entries.count }

    /// Adds `pattern` and returns its id (the existing id if it was already present).
    ///
    /// For an index without placeholders, where braces are literal text and nothing can fail.
    @discardableResult
    package mutating func insert(_ pattern: String) -> Int {
        precondition(!placeholders, "an index with placeholders inserts with insert(parsing:)")
        return (try? insert(parsing: pattern)) ?? -1
    }

    /// Adds the pattern spelled by the UTF-8 bytes `text[range]` to an index without
    /// placeholders and returns its id.
    mutating func insert(_ text: [UInt8], _ range: Range<Int>) -> Int {
        precondition(!placeholders, "an index with placeholders inserts with insert(parsing:)")
        return (try? insert(parsing: text, range)) ?? -1
    }

    /// Adds `spelling` and returns its id.
    ///
    /// - Throws: ``PatternSyntaxError`` for braces that do not form placeholders.
    mutating func insert(parsing spelling: String) throws(PatternSyntaxError) -> Int {
        let bytes = Array(spelling.utf8)
        return try insert(parsing: bytes, bytes.indices)
    }

    /// Adds the pattern spelled by the UTF-8 bytes `text[range]` and returns its id.
    ///
    /// The bytes are read in place, by position: a rules file's fields are ranges of its text,
    /// so parsing one makes no slice (and no reference count traffic) per field.
    ///
    /// - Throws: ``PatternSyntaxError`` for braces that do not form placeholders.
    mutating func insert(parsing text: [UInt8], _ range: Range<Int>) throws(PatternSyntaxError) -> Int {
        // One pass: the hash, the first and last star, whether only stars follow the first one,
        // and whether a brace appears.
        var spellingHash = Self.emptyHash
        var firstStar = -1
        var lastStar = -1
        var onlyStarsAfterFirst = true
        var hasBrace = false
        for index in range {
            let byte = text[index]
            spellingHash = Self.hash(spellingHash, byte)
            if byte == Self.star {
                if firstStar < 0 { firstStar = index }
                lastStar = index
            } else {
                if firstStar >= 0 { onlyStarsAfterFirst = false }
                if byte == Self.openBrace || byte == Self.closeBrace { hasBrace = true }
            }
        }
        if let id = find(text, range, hash: spellingHash) { return Int(id) }
        let id = Int32(entries.count)
        let kind: Kind
        let prefixLength: Int
        if placeholders && hasBrace {
            // A brace always forms a placeholder (or throws), so the pattern is never exact.
            let pattern = try Pattern(String(decoding: text[range], as: UTF8.self))
            templates.append(pattern)
            kind = .template
            prefixLength = pattern.prefixLength
        } else if firstStar >= 0 {
            kind = onlyStarsAfterFirst ? .prefixOnly : .glob
            prefixLength = firstStar - range.lowerBound
        } else {
            kind = .exact
            prefixLength = range.count
        }
        let start = bytes.count
        bytes += text[range]
        var entry = Entry(
            start: Int32(start), end: Int32(bytes.count), prefixLength: Int32(prefixLength),
            lastStar: Int32(lastStar >= 0 ? start + lastStar - range.lowerBound : -1),
            next: -1, nextSpelling: bySpelling[spellingHash] ?? -1,
            template: kind == .template ? Int32(templates.count - 1) : -1, kind: kind)
        bySpelling[spellingHash] = id
        if kind == .exact {
            exactCount += 1
        } else {
            let group = self.group(start: start, length: prefixLength)
            entry.next = groups[group].first
            groups[group].first = id
        }
        entries.append(entry)
        return Int(id)
    }

    /// The index in `groups` of the group whose prefix is `bytes[start..<start + length]`,
    /// added (without patterns) if there is none yet.
    private mutating func group(start: Int, length: Int) -> Int {
        if length == 0 {
            if emptyPrefixGroup < 0 {
                emptyPrefixGroup = Int32(groups.count)
                groups.append(Group(start: Int32(start), length: 0, first: -1, nextWithHash: -1))
            }
            return Int(emptyPrefixGroup)
        }
        let prefix = start..<(start + length)
        let key = Self.hash(bytes[prefix])
        var candidate = groupsByHash[key] ?? -1
        while candidate >= 0 {
            let group = groups[Int(candidate)]
            let groupPrefix = Int(group.start)..<Int(group.start + group.length)
            if bytes[groupPrefix].elementsEqual(bytes[prefix]) { return Int(candidate) }
            candidate = group.nextWithHash
        }
        groups.append(
            Group(
                start: Int32(start), length: Int32(length), first: -1, nextWithHash: groupsByHash[key] ?? -1))
        groupsByHash[key] = Int32(groups.count - 1)
        let bit = Self.lastByteBit(bytes[prefix.upperBound - 1])
        if let index = groupLengths.firstIndex(where: { $0.length == length }) {
            groupLengths[index].lastBytes |= bit
        } else {
            groupLengths.append(GroupLength(length: length, lastBytes: bit))
            groupLengths.sort { $0.length < $1.length }
        }
        return groups.count - 1
    }

    /// Makes room for `count` patterns in all, of which up to `wildcards` have a star or a
    /// placeholder (and so may each start a group), so that adding them does not grow the tables.
    mutating func reserveCapacity(_ count: Int, wildcards: Int = 0) {
        bySpelling.reserveCapacity(count)
        groupsByHash.reserveCapacity(wildcards)
        entries.reserveCapacity(count)
    }

    /// The id of `pattern` if it is in the index (the pattern itself, not a pattern matching it).
    package func id(of pattern: String) -> Int? {
        let bytes = Array(pattern.utf8)
        return find(bytes, bytes.indices, hash: Self.hash(bytes)).map(Int.init)
    }

    /// The id of the pattern spelled `text[range]`, whose hash is `hash`.
    private func find(_ text: [UInt8], _ range: Range<Int>, hash: UInt32) -> Int32? {
        var candidate = bySpelling[hash] ?? -1
        while candidate >= 0 {
            let entry = entries[Int(candidate)]
            if Int(entry.end - entry.start) == range.count
                && equal(Int(entry.start)..<Int(entry.end), text, at: range.lowerBound)
            {
                return candidate
            }
            candidate = entry.nextSpelling
        }
        return nil
    }

    /// Whether pattern `id` is spelled `text`.
    private func spells<Text: ByteText & ~Escapable>(_ id: Int, _ text: Text) -> Bool {
        let entry = entries[id]
        return Int(entry.end - entry.start) == text.count
            && equal(Int(entry.start)..<Int(entry.end), text, at: 0)
    }

    /// The pattern spelled as inserted, by id.
    package func pattern(_ id: Int) -> String {
        String(decoding: bytes[Int(entries[id].start)..<Int(entries[id].end)], as: UTF8.self)
    }

    /// Whether any pattern matches `text`.
    ///
    /// The exact pattern that is the text is looked up first, and when there is one the groups
    /// are not walked: one look-up answers an allow-list of exact names.
    package func contains(match text: String) -> Bool {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            containsMatch(text.utf8.span)
        } else {
            containsMatch(Array(text.utf8))
        }
    }

    /// ``contains(match:)`` on the text's bytes.
    private func containsMatch<Text: ByteText & ~Escapable>(_ text: Text) -> Bool {
        var ids = MatchedIDs()
        if exactCount > 0 {
            collectExact(Self.hash(Self.emptyHash, text, 0..<text.count), text, into: &ids)
            if !ids.isEmpty { return true }
        }
        if exactCount < count {
            collectMatches(of: text, values: NoPlaceholderValues(), into: &ids, includingExact: false)
        }
        return !ids.isEmpty
    }

    /// The ids of all patterns that match `text`, in no particular order.
    package func matches(of text: String) -> [Int] {
        let ids = matchedIDs(of: text)
        return (0..<ids.count).map { Int(ids[$0]) }
    }

    /// Calls `visit` with the id of each pattern that matches `text` until `visit` returns true.
    ///
    /// - Returns: Whether `visit` returned true (stopped the walk).
    @discardableResult
    package func forEachMatch(of text: String, _ visit: (Int) -> Bool) -> Bool {
        let ids = matchedIDs(of: text)
        for index in 0..<ids.count where visit(Int(ids[index])) {
            return true
        }
        return false
    }

    /// The ids of all patterns that match `text`, in no particular order (a pattern with
    /// placeholders matches nothing).
    func matchedIDs(of text: String) -> MatchedIDs {
        matchedIDs(of: text, values: NoPlaceholderValues())
    }

    /// The ids of all patterns that match `text`, in no particular order; placeholders stand for
    /// their values in `values`.
    func matchedIDs(of text: String, values: some PlaceholderValues) -> MatchedIDs {
        var ids = MatchedIDs()
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            collectMatches(of: text.utf8.span, values: values, into: &ids)
        } else {
            collectMatches(of: Array(text.utf8), values: values, into: &ids)
        }
        return ids
    }

    /// ``matchedIDs(of:values:)`` on the text's bytes; `includingExact: false` leaves the exact
    /// patterns out.
    private func collectMatches<Text: ByteText & ~Escapable>(
        of text: Text, values: some PlaceholderValues, into ids: inout MatchedIDs, includingExact: Bool = true
    ) {
        if emptyPrefixGroup >= 0 {
            collectGroup(groups[Int(emptyPrefixGroup)], text, values, into: &ids)
        }
        // The hash of `text[..<hashed]`, extended to each length some group has.
        var hash = Self.emptyHash
        var hashed = 0
        for groupLength in groupLengths {
            let length = groupLength.length
            guard length <= text.count else { break }
            hash = Self.hash(hash, text, hashed..<length)
            hashed = length
            guard groupLength.lastBytes & Self.lastByteBit(text[length - 1]) != 0 else { continue }
            var candidate = groupsByHash[hash] ?? -1
            while candidate >= 0 {
                let group = groups[Int(candidate)]
                if Int(group.length) == length
                    && equal(Int(group.start)..<Int(group.start) + length, text, at: 0)
                {
                    // Prefixes are distinct: no other group of the chain can match.
                    collectGroup(group, text, values, into: &ids)
                    break
                }
                candidate = group.nextWithHash
            }
        }
        if includingExact && exactCount > 0 {
            collectExact(Self.hash(hash, text, hashed..<text.count), text, into: &ids)
        }
    }

    /// Adds the exact pattern that is `text`, whose hash is `hash`, if there is one.
    private func collectExact<Text: ByteText & ~Escapable>(
        _ hash: UInt32, _ text: Text, into ids: inout MatchedIDs
    ) {
        var candidate = bySpelling[hash] ?? -1
        while candidate >= 0 {
            let id = Int(candidate)
            if entries[id].kind == .exact && spells(id, text) {
                // Spellings are distinct: no other pattern is this text.
                ids.append(candidate)
                return
            }
            candidate = entries[id].nextSpelling
        }
    }

    /// Adds the patterns of `group`, whose prefix `text` starts with, that match `text`.
    private func collectGroup<Text: ByteText & ~Escapable>(
        _ group: Group, _ text: Text, _ values: some PlaceholderValues, into ids: inout MatchedIDs
    ) {
        var candidate = group.first
        while candidate >= 0 {
            let id = Int(candidate)
            let matches: Bool
            switch entries[id].kind {
            case .prefixOnly:
                matches = true
            case .glob:
                matches = globMatchesAfterPrefix(id, text)
            case .template:
                matches = templates[Int(entries[id].template)].matches(
                    text, values: values, prefixMatched: true)
            case .exact:
                matches = false
            }
            if matches { ids.append(candidate) }
            candidate = entries[id].next
        }
    }

    /// Whether the pattern `id` (literal text and stars) matches `text`, which starts with its
    /// prefix (the first run): its last run at the end, and each run between at its leftmost
    /// place after the one before. A later place would leave less text for the runs after it, so
    /// the leftmost never loses a match; the walk takes at most `text × pattern` steps.
    private func globMatchesAfterPrefix<Text: ByteText & ~Escapable>(_ id: Int, _ text: Text) -> Bool {
        let entry = entries[id]
        let end = Int(entry.end)
        let lastStar = Int(entry.lastStar)
        let prefixEnd = Int(entry.start + entry.prefixLength)
        let suffixLength = end - lastStar - 1
        guard Int(entry.prefixLength) + suffixLength <= text.count,
            equal((lastStar + 1)..<end, text, at: text.count - suffixLength)
        else { return false }
        var position = Int(entry.prefixLength)
        let textEnd = text.count - suffixLength
        var runStart = prefixEnd + 1
        while runStart <= lastStar {
            let runEnd = bytes[runStart..<lastStar].firstIndex(of: Self.star) ?? lastStar
            if runEnd > runStart {
                guard let found = find(runStart..<runEnd, in: text, from: position, to: textEnd) else {
                    return false
                }
                position = found + (runEnd - runStart)
            }
            runStart = runEnd + 1
        }
        return true
    }

    /// Whether the pattern bytes `run` equal `text` from `offset`.
    private func equal<Text: ByteText & ~Escapable>(
        _ run: Range<Int>, _ text: Text, at offset: Int
    ) -> Bool {
        guard run.count <= text.count - offset else { return false }
        var textIndex = offset
        for byte in bytes[run] {
            if text[textIndex] != byte { return false }
            textIndex += 1
        }
        return true
    }

    /// The first index at or after `from` where the pattern bytes `run` (not empty) occur in
    /// `text[from..<to]`.
    private func find<Text: ByteText & ~Escapable>(
        _ run: Range<Int>, in text: Text, from: Int, to: Int
    ) -> Int? {
        guard to - from >= run.count else { return nil }
        // Most places fail on the first byte: test it before the whole run.
        let first = bytes[run.lowerBound]
        for start in from...(to - run.count) where text[start] == first && equal(run, text, at: start) {
            return start
        }
        return nil
    }

    private static let star = UInt8(ascii: "*")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")

    /// The FNV-1a hash (32 bits) of no bytes.
    ///
    /// 32 bits, so that a table slot holds a key and an id in 8 bytes: the tables of 100,000
    /// patterns take half the memory, and a reload and a decision miss the cache less. Two
    /// spellings with the same hash are chained (`Entry.nextSpelling`, `Group.nextWithHash`),
    /// and a match is always confirmed on the bytes.
    private static let emptyHash: UInt32 = 0x811c_9dc5

    /// `hash` extended by `byte` (FNV-1a), so every prefix of a text is hashed in one pass.
    private static func hash(_ hash: UInt32, _ byte: UInt8) -> UInt32 {
        (hash ^ UInt32(byte)) &* 0x0100_0193
    }

    /// `hash` extended by the bytes of `text` in `range`.
    private static func hash<Text: ByteText & ~Escapable>(
        _ hash: UInt32, _ text: Text, _ range: Range<Int>
    ) -> UInt32 {
        var hash = hash
        for index in range {
            hash = Self.hash(hash, text[index])
        }
        return hash
    }

    /// The hash of `bytes`.
    private static func hash(_ bytes: some Sequence<UInt8>) -> UInt32 {
        bytes.reduce(emptyHash, hash)
    }
}
