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
    private var patterns: [Pattern] = []
    /// The patterns as inserted, by id.
    private var spellings: [String] = []
    /// Pattern spellings to ids, for inserting a pattern twice.
    private var ids: [String: Int32] = [:]
    /// Exact patterns by the hash of their bytes; patterns with the same hash are chained
    /// through `next`.
    private var exact: [UInt64: Int32] = [:]
    /// The other patterns by the hash of their prefix, chained through `next` likewise.
    private var groups: [UInt64: Int32] = [:]
    /// The next pattern in the same chain, or -1.
    private var next: [Int32] = []
    /// The prefix lengths some group has, ascending, each once.
    private var prefixLengths: [Int] = []
    private let placeholders: Bool

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
    package var count: Int { patterns.count }

    /// Adds `pattern` and returns its id (the existing id if it was already present).
    ///
    /// For an index without placeholders, where braces are literal text and nothing can fail.
    @discardableResult
    package mutating func insert(_ pattern: String) -> Int {
        precondition(!placeholders, "an index with placeholders inserts with insert(parsing:)")
        return (try? insert(parsing: pattern)) ?? -1
    }

    /// Adds `spelling` and returns its id.
    ///
    /// - Throws: ``PatternSyntaxError`` for braces that do not form placeholders.
    mutating func insert(parsing spelling: String) throws(PatternSyntaxError) -> Int {
        if let id = ids[spelling] { return Int(id) }
        let pattern = try Pattern(spelling, placeholders: placeholders)
        let id = Int32(patterns.count)
        ids[spelling] = id
        patterns.append(pattern)
        spellings.append(spelling)
        if pattern.isExact {
            next.append(exact[Self.hash(pattern.prefix)] ?? -1)
            exact[Self.hash(pattern.prefix)] = id
        } else {
            let key = Self.hash(pattern.prefix)
            next.append(groups[key] ?? -1)
            groups[key] = id
            let length = pattern.prefix.count
            if length > 0 && !prefixLengths.contains(length) {
                prefixLengths.append(length)
                prefixLengths.sort()
            }
        }
        return Int(id)
    }

    /// The id of `pattern` if it is in the index (the pattern itself, not a pattern matching it).
    package func id(of pattern: String) -> Int? {
        ids[pattern].map(Int.init)
    }

    /// The pattern spelled as inserted, by id.
    package func pattern(_ id: Int) -> String {
        spellings[id]
    }

    /// Whether any pattern matches `text`.
    package func contains(match text: String) -> Bool {
        var found = false
        forEachMatch(of: text) { _ in
            found = true
            return true
        }
        return found
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
        forEachMatch(of: text, values: { _ in nil }, visit)
    }

    /// Calls `visit` with the id of each pattern that matches `text` until `visit` returns true;
    /// `values` gives each placeholder's value as bytes, or `nil` when it has none.
    ///
    /// - Returns: Whether `visit` returned true (stopped the walk).
    @discardableResult
    func forEachMatch(
        of text: String, values: (Placeholder) -> [UInt8]?, _ visit: (Int) -> Bool
    ) -> Bool {
        let bytes = Array(text.utf8)
        var hash = Self.emptyHash
        if visitGroup(Self.emptyHash, bytes, values, visit) { return true }
        var lengths = prefixLengths.makeIterator()
        var nextLength = lengths.next()
        for (offset, byte) in bytes.enumerated() {
            hash = Self.hash(hash, byte)
            if offset + 1 == nextLength {
                nextLength = lengths.next()
                if visitGroup(hash, bytes, values, visit) { return true }
            }
        }
        var candidate = exact[hash] ?? -1
        while candidate >= 0 {
            if patterns[Int(candidate)].prefix == bytes && visit(Int(candidate)) { return true }
            candidate = next[Int(candidate)]
        }
        return false
    }

    /// Visits the patterns of the group whose prefix hashes to `hash` and that match `text`.
    private func visitGroup(
        _ hash: UInt64, _ text: [UInt8], _ values: (Placeholder) -> [UInt8]?, _ visit: (Int) -> Bool
    ) -> Bool {
        var candidate = groups[hash] ?? -1
        while candidate >= 0 {
            let pattern = patterns[Int(candidate)]
            if text.starts(with: pattern.prefix) && pattern.matches(text, values: values)
                && visit(Int(candidate))
            {
                return true
            }
            candidate = next[Int(candidate)]
        }
        return false
    }

    /// The FNV-1a hash of no bytes.
    private static let emptyHash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `hash` extended by `byte` (FNV-1a), so every prefix of a text is hashed in one pass.
    private static func hash(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The hash of `bytes`.
    private static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(emptyHash, hash)
    }
}
