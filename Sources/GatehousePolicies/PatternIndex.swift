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
///   placeholder), in a dictionary keyed by a hash of the prefix. A lookup hashes each prefix
///   of the text in one pass and looks up only the prefix lengths some group has, so it visits
///   only the patterns whose prefix starts the text. The rest of each is matched run by run, in
///   at most `text × pattern` steps, never exponential time.
///
/// A hash only finds candidates; a match is always confirmed on the bytes themselves.
package struct PatternIndex: Sendable {
    /// What a pattern is, for the lookup.
    private enum Kind: Sendable {
        /// Literal text only.
        case exact
        /// `*` alone: matches every text without looking at it.
        case everything
        /// Literal text and stars.
        case glob
        /// With placeholders (kept as a `Pattern` in `templates`).
        case template
    }

    /// Every pattern by the hash of its whole spelling (for an exact pattern, the text it
    /// matches); patterns with the same hash are chained through `Entry.nextSpelling`.
    private var bySpelling = HashedIDs()
    /// Every pattern's UTF-8 bytes, back to back.
    private var bytes: [UInt8] = []
    /// What the lookup needs of each pattern, in one record (one place to read), by id.
    private var entries: [Entry] = []
    /// The patterns with placeholders, in the order added (`Entry.template` indexes it).
    private var templates: [Pattern] = []
    /// The patterns with a star or placeholder by the hash of their (non-empty) prefix;
    /// patterns with the same prefix hash are chained through `next`.
    private var groups = HashedIDs()
    /// The first of the patterns with an empty prefix (starting with `*` or a placeholder).
    private var emptyPrefixGroup: Int32 = -1
    /// The prefix lengths (above 0) some group has, ascending, each once.
    private var groupLengths: [Int] = []
    private let placeholders: Bool

    /// One pattern as the lookup needs it.
    private struct Entry: Sendable {
        /// Where the pattern's bytes are in `bytes`.
        var start: Int32
        var end: Int32
        /// The number of literal bytes before the first star or placeholder.
        var prefixLength: Int32
        /// Where the last star is in `bytes`, or -1.
        var lastStar: Int32
        /// The next pattern in the same prefix chain, or -1 (always -1 for an exact pattern).
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

    /// Adds the pattern spelled by the UTF-8 `spelling` to an index without placeholders and
    /// returns its id.
    mutating func insert(_ spelling: ArraySlice<UInt8>) -> Int {
        precondition(!placeholders, "an index with placeholders inserts with insert(parsing:)")
        return (try? insert(parsing: spelling)) ?? -1
    }

    /// Adds `spelling` and returns its id.
    ///
    /// - Throws: ``PatternSyntaxError`` for braces that do not form placeholders.
    mutating func insert(parsing spelling: String) throws(PatternSyntaxError) -> Int {
        try insert(parsing: Array(spelling.utf8)[...])
    }

    /// Adds the pattern spelled by the UTF-8 `spelling` and returns its id.
    ///
    /// - Throws: ``PatternSyntaxError`` for braces that do not form placeholders.
    mutating func insert(parsing spelling: ArraySlice<UInt8>) throws(PatternSyntaxError) -> Int {
        let spellingHash = Self.hash(spelling)
        if let id = find(spelling, hash: spellingHash) { return Int(id) }
        let id = Int32(entries.count)
        let kind: Kind
        let prefixLength: Int
        if placeholders && spelling.contains(where: { $0 == Self.openBrace || $0 == Self.closeBrace }) {
            // A brace always forms a placeholder (or throws), so the pattern is never exact.
            let pattern = try Pattern(String(decoding: spelling, as: UTF8.self))
            templates.append(pattern)
            kind = .template
            prefixLength = pattern.prefix.count
        } else if let star = spelling.firstIndex(of: Self.star) {
            kind = spelling.allSatisfy { $0 == Self.star } ? .everything : .glob
            prefixLength = star - spelling.startIndex
        } else {
            kind = .exact
            prefixLength = spelling.count
        }
        let start = bytes.count
        bytes += spelling
        var entry = Entry(
            start: Int32(start), end: Int32(bytes.count), prefixLength: Int32(prefixLength),
            lastStar: Int32(spelling.lastIndex(of: Self.star).map { start + $0 - spelling.startIndex } ?? -1),
            next: -1, nextSpelling: bySpelling[spellingHash] ?? -1,
            template: kind == .template ? Int32(templates.count - 1) : -1, kind: kind)
        bySpelling[spellingHash] = id
        if kind == .exact {
            entry.next = -1
        } else if prefixLength == 0 {
            entry.next = emptyPrefixGroup
            emptyPrefixGroup = id
        } else {
            let key = Self.hash(spelling.prefix(prefixLength))
            entry.next = groups[key] ?? -1
            groups[key] = id
            if !groupLengths.contains(prefixLength) {
                groupLengths.append(prefixLength)
                groupLengths.sort()
            }
        }
        entries.append(entry)
        return Int(id)
    }

    /// Makes room for `count` patterns in all.
    mutating func reserveCapacity(_ count: Int) {
        bySpelling.reserveCapacity(count)
    }

    /// The id of `pattern` if it is in the index (the pattern itself, not a pattern matching it).
    package func id(of pattern: String) -> Int? {
        find(pattern.utf8, hash: Self.hash(pattern.utf8)).map(Int.init)
    }

    /// The id of the pattern spelled `spelling`, whose hash is `hash`.
    private func find(_ spelling: some Collection<UInt8>, hash: UInt64) -> Int32? {
        var candidate = bySpelling[hash] ?? -1
        while candidate >= 0 {
            if spells(Int(candidate), spelling) { return candidate }
            candidate = entries[Int(candidate)].nextSpelling
        }
        return nil
    }

    /// Whether pattern `id` is spelled `text`.
    private func spells(_ id: Int, _ text: some Collection<UInt8>) -> Bool {
        let entry = entries[id]
        guard Int(entry.end - entry.start) == text.count else { return false }
        var index = Int(entry.start)
        for byte in text {
            if bytes[index] != byte { return false }
            index += 1
        }
        return true
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
    package func contains(match text: String) -> Bool {
        forEachMatch(of: text) { _ in true }
    }

    /// The ids of all patterns that match `text`, in no particular order.
    package func matches(of text: String) -> [Int] {
        var ids: [Int] = []
        forEachMatch(of: text) { id in
            ids.append(id)
            return false
        }
        return ids
    }

    /// Calls `visit` with the id of each pattern that matches `text` until `visit` returns true.
    ///
    /// - Returns: Whether `visit` returned true (stopped the walk).
    @discardableResult
    package func forEachMatch(of text: String, _ visit: (Int) -> Bool) -> Bool {
        forEachMatch(of: text, values: { _ in nil }, visit: visit)
    }

    /// Calls `visit` with the id of each pattern that matches `text` until `visit` returns true;
    /// `values` gives each placeholder's value, or `nil` when it has none (then a pattern
    /// holding it does not match).
    ///
    /// - Returns: Whether `visit` returned true (stopped the walk).
    @discardableResult
    func forEachMatch(of text: String, values: (Placeholder) -> String?, visit: (Int) -> Bool) -> Bool {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return forEachMatch(in: text.utf8.span, values: values, visit: visit)
        }
        return forEachMatch(in: Array(text.utf8), values: values, visit: visit)
    }

    /// ``forEachMatch(of:values:visit:)`` on the text's bytes.
    private func forEachMatch<Text: ByteText & ~Escapable>(
        in text: Text, values: (Placeholder) -> String?, visit: (Int) -> Bool
    ) -> Bool {
        if emptyPrefixGroup >= 0 && visitChain(emptyPrefixGroup, text, values, visit) {
            return true
        }
        var hash = Self.emptyHash
        var lengthIndex = 0
        var nextLength = groupLengths.first ?? -1
        for index in 0..<text.count {
            hash = Self.hash(hash, text[index])
            if index + 1 == nextLength {
                lengthIndex += 1
                nextLength = lengthIndex < groupLengths.count ? groupLengths[lengthIndex] : -1
                if let head = groups[hash], visitChain(head, text, values, visit) { return true }
            }
        }
        return visitExact(hash, text, visit)
    }

    /// Visits the exact pattern that is `text`, whose hash is `hash`, if there is one.
    private func visitExact<Text: ByteText & ~Escapable>(
        _ hash: UInt64, _ text: Text, _ visit: (Int) -> Bool
    ) -> Bool {
        var candidate = bySpelling[hash] ?? -1
        while candidate >= 0 {
            let id = Int(candidate)
            if entries[id].kind == .exact && spells(id, text) && visit(id) {
                return true
            }
            candidate = entries[id].nextSpelling
        }
        return false
    }

    /// Visits the patterns of the chain starting at `head` that match `text`.
    private func visitChain<Text: ByteText & ~Escapable>(
        _ head: Int32, _ text: Text, _ values: (Placeholder) -> String?,
        _ visit: (Int) -> Bool
    ) -> Bool {
        var candidate = head
        while candidate >= 0 {
            let id = Int(candidate)
            let matches: Bool
            switch entries[id].kind {
            case .everything:
                matches = true
            case .glob:
                matches = globMatches(id, text)
            case .template:
                matches = templates[Int(entries[id].template)].matches(text, values: values)
            case .exact:
                matches = false
            }
            if matches && visit(id) { return true }
            candidate = entries[id].next
        }
        return false
    }

    /// Whether the pattern `id` (literal text and stars) matches `text`: its first run (the
    /// prefix) at the start, its last run at the end, and each run between at its leftmost place
    /// after the one before. A later place would leave less text for the runs after it, so the
    /// leftmost never loses a match; the walk takes at most `text × pattern` steps.
    private func globMatches<Text: ByteText & ~Escapable>(_ id: Int, _ text: Text) -> Bool {
        let entry = entries[id]
        let start = Int(entry.start)
        let end = Int(entry.end)
        let lastStar = Int(entry.lastStar)
        let prefixEnd = start + Int(entry.prefixLength)
        let suffixLength = end - lastStar - 1
        guard prefixEnd - start + suffixLength <= text.count,
            equal(start..<prefixEnd, text, at: 0),
            equal((lastStar + 1)..<end, text, at: text.count - suffixLength)
        else { return false }
        var position = prefixEnd - start
        let textEnd = text.count - suffixLength
        var runStart = prefixEnd + 1
        while runStart <= lastStar {
            var runEnd = runStart
            while runEnd < lastStar && bytes[runEnd] != Self.star { runEnd += 1 }
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

    /// The FNV-1a hash of no bytes.
    private static let emptyHash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `hash` extended by `byte` (FNV-1a), so every prefix of a text is hashed in one pass.
    private static func hash(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The hash of `bytes`.
    private static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(emptyHash, hash)
    }
}
