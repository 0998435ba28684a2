/// A set of patterns that answers "which patterns match this text?" without scanning them.
///
/// A pattern is an exact string, or contains `*`, which matches any run of characters (`/`
/// included, the empty run too); several `*` may appear (`avatars/*/private-*`). Matching is on
/// UTF-8 bytes: no Unicode normalization, no case folding.
///
/// Every distinct pattern gets an id, `0, 1, 2, ...` in order of first insertion; inserting the
/// same pattern again returns its existing id. Lookup cost does not grow with the number of
/// patterns:
/// - exact patterns sit in a hash table keyed by a hash of their bytes: one probe;
/// - wildcard patterns are grouped by their literal prefix (the bytes before the first `*`), and
///   the groups sit in a second table keyed by a hash of the prefix. A lookup hashes the text
///   8 bytes at a time and probes that table only at the prefix lengths some group has (a trie
///   walk, with hashed nodes), so it visits only the wildcard patterns whose prefix is a prefix
///   of the text. The rest of each candidate is matched run by run (the literal bytes between
///   stars, each found leftmost), so it takes at most `O(text × pattern)` steps, never
///   exponential time.
///
/// Hash collisions are resolved by comparing bytes, so a match is always exact.
///
/// The tables sit in one object shared by copies (copy on write), so passing or copying an
/// index costs one reference.
package struct PatternIndex: Sendable {
    private var tables = PatternTables()

    /// Creates an empty index.
    package init() {}

    /// Creates an index of `patterns`; pattern ids follow the order of first appearance.
    package init(_ patterns: some Sequence<String>) {
        for pattern in patterns {
            insert(pattern)
        }
    }

    /// The number of distinct patterns.
    package var count: Int { tables.ends.count }

    /// Adds `pattern` and returns its id (the existing id if it was already present).
    @discardableResult
    package mutating func insert(_ pattern: String) -> Int {
        var pattern = pattern
        return pattern.withUTF8 { insert(bytes: $0) }
    }

    /// Adds the pattern spelled by `bytes` (UTF-8) and returns its id.
    @discardableResult
    package mutating func insert(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let spelling = PatternTables.Spelling(bytes)
        if let existing = tables.find(spelling) {
            return existing
        }
        if !isKnownUniquelyReferenced(&tables) {
            tables = tables.copy()
        }
        return tables.add(spelling)
    }

    /// The id of `pattern` if it is in the index (the pattern itself, not a pattern matching it).
    package func id(of pattern: String) -> Int? {
        var pattern = pattern
        return pattern.withUTF8 { tables.find(PatternTables.Spelling($0)) }
    }

    /// The pattern with id `id`.
    package func pattern(_ id: Int) -> String {
        tables.pattern(id)
    }

    /// Whether any pattern matches `text`.
    @inline(__always)
    package func contains(match text: String) -> Bool {
        WordBytes.withBytes(of: text) { tables.containsMatch($0, $1) }
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

    /// Writes the ids of the patterns that match `text` to the start of `ids`, in no particular
    /// order, and returns how many there are; `nil` when more match than `ids` has room for.
    package func collectMatches(of text: String, into ids: UnsafeMutableBufferPointer<Int32>) -> Int? {
        let count = WordBytes.withBytes(of: text) { tables.collectMatches($0, $1, into: ids) }
        return count < 0 ? nil : count
    }

    /// Calls `visit` with the id of each pattern that matches `text` until `visit` returns true.
    ///
    /// - Returns: Whether `visit` returned true (stopped the walk).
    @discardableResult
    package func forEachMatch(of text: String, _ visit: (Int) -> Bool) -> Bool {
        WordBytes.withBytes(of: text) { tables.forEachMatch($0, $1, visit) }
    }

    /// Calls `visit` with the id of each pattern that matches the UTF-8 `text` until `visit`
    /// returns true: the exact pattern first, then the wildcards by ascending prefix length.
    ///
    /// - Returns: Whether `visit` returned true (stopped the walk).
    @discardableResult
    package func forEachMatch(of text: UnsafeBufferPointer<UInt8>, _ visit: (Int) -> Bool) -> Bool {
        tables.forEachMatch(text.baseAddress ?? WordBytes.nowhere, text.count, visit)
    }
}

/// The tables of a ``PatternIndex``.
///
/// `@unchecked Sendable` and `@exclusivity(unchecked)`: an instance is changed only through
/// `PatternIndex.insert`, which first makes sure its index is the only one holding it (copy on
/// write), and a `PatternIndex` is a value, so no change ever overlaps a read. Lookups read the
/// properties without a run-time exclusivity check each.
private final class PatternTables: @unchecked Sendable {
    fileprivate static let star = UInt8(ascii: "*")
    private static let none: Int32 = -1

    /// All patterns' bytes, back to back; pattern `i` ends at `ends[i]`.
    @exclusivity(unchecked) private var storage: [UInt8] = []
    @exclusivity(unchecked) var ends: [Int32] = []
    /// Exact patterns: key the hash of the pattern, value its id, tag its length.
    @exclusivity(unchecked) private var exact = HashSlots()
    /// Wildcard patterns, for finding one by its spelling: key the hash of the whole pattern,
    /// value its id, tag its length. Lookups of texts never probe it.
    @exclusivity(unchecked) private var wildcardsBySpelling = HashSlots()
    /// Wildcard patterns in insertion order; those with the same literal prefix are chained.
    @exclusivity(unchecked) private var wildcards: [Wildcard] = []
    /// Prefix groups: key the hash of the prefix, value the group's first wildcard (an index
    /// into `wildcards`), tag the prefix length. The empty prefix has no entry here.
    @exclusivity(unchecked) private var groups = HashSlots()
    /// The first wildcard of the group with the empty prefix (patterns starting with `*`).
    @exclusivity(unchecked) private var emptyPrefixGroup = none
    /// The prefix lengths (above 0) that some group has, ascending, each once.
    @exclusivity(unchecked) private var prefixLengths: [Int32] = []
    /// The literal runs between the first and the last star of the wildcards that have any:
    /// pairs of (offset in the pattern, length), each wildcard's pairs together.
    @exclusivity(unchecked) private var middleRuns: [Int32] = []

    /// A wildcard pattern as the lookup needs it, without reading its bytes until it must; the
    /// fields most lookups need come first.
    private struct Wildcard {
        /// The pattern's id.
        var id: Int32
        /// The next wildcard with the same prefix (an index into `wildcards`), or -1.
        var next: Int32
        /// The number of bytes after the last `*`.
        var suffixLength: Int32
        /// How many literal runs stand between the first and the last `*` (pairs in
        /// `middleRuns` from `firstRun`).
        var runCount: Int32
        /// Where the pattern's bytes start in `storage`, and how many there are.
        var start: Int32
        var length: Int32
        /// The number of bytes before the first `*`.
        var prefixLength: Int32
        var firstRun: Int32
    }

    /// A copy sharing the arrays until either changes them.
    func copy() -> PatternTables {
        let copy = PatternTables()
        copy.storage = storage
        copy.ends = ends
        copy.exact = exact
        copy.wildcardsBySpelling = wildcardsBySpelling
        copy.wildcards = wildcards
        copy.groups = groups
        copy.emptyPrefixGroup = emptyPrefixGroup
        copy.prefixLengths = prefixLengths
        copy.middleRuns = middleRuns
        return copy
    }

    // MARK: - Building

    /// A pattern to add or find: its bytes, their hash, and where its first `*` is.
    struct Spelling {
        let bytes: UnsafeBufferPointer<UInt8>
        let hash: UInt64
        let firstStar: Int?

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            hash = WordBytes.hash(bytes)
            firstStar = WordBytes.firstIndex(of: PatternTables.star, in: bytes)
        }
    }

    /// Adds a pattern that is not present yet and returns its id.
    func add(_ spelling: Spelling) -> Int {
        let bytes = spelling.bytes
        let hash = spelling.hash
        precondition(
            storage.count + bytes.count <= Int32.max && ends.count < Int32.max,
            "a PatternIndex holds at most 2 GiB of pattern bytes")
        let id = Int32(ends.count)
        let start = Int32(storage.count)
        storage.append(contentsOf: bytes)
        ends.append(Int32(storage.count))
        let length = Int32(bytes.count)
        guard let firstStar = spelling.firstStar else {
            exact.insert(key: hash, value: id, tag: length)
            return Int(id)
        }
        wildcardsBySpelling.insert(key: hash, value: id, tag: length)
        let lastStar = bytes.lastIndex(of: Self.star)!
        let firstRun = Int32(middleRuns.count)
        var runStart = firstStar + 1
        while runStart < lastStar {
            let runEnd = bytes[runStart...].firstIndex(of: Self.star)!
            if runEnd > runStart {
                middleRuns.append(Int32(runStart))
                middleRuns.append(Int32(runEnd - runStart))
            }
            runStart = runEnd + 1
        }
        var wildcard = Wildcard(
            id: id, next: Self.none, suffixLength: Int32(bytes.count - lastStar - 1),
            runCount: (Int32(middleRuns.count) - firstRun) / 2, start: start, length: length,
            prefixLength: Int32(firstStar), firstRun: firstRun)
        let index = Int32(wildcards.count)
        // A new member goes second in its group's chain, so the group's entry never changes.
        let head =
            firstStar == 0 ? emptyPrefixGroup : group(of: UnsafeBufferPointer(rebasing: bytes[..<firstStar]))
        if head != Self.none {
            wildcard.next = wildcards[Int(head)].next
            wildcards[Int(head)].next = index
        } else if firstStar == 0 {
            emptyPrefixGroup = index
        } else {
            groups.insert(
                key: WordBytes.hash(UnsafeBufferPointer(rebasing: bytes[..<firstStar])), value: index,
                tag: Int32(firstStar))
            let position = prefixLengths.firstIndex { $0 >= Int32(firstStar) } ?? prefixLengths.count
            if position == prefixLengths.count || prefixLengths[position] != Int32(firstStar) {
                prefixLengths.insert(Int32(firstStar), at: position)
            }
        }
        wildcards.append(wildcard)
        return Int(id)
    }

    /// The first wildcard of the group with literal prefix `prefix` (not empty), or -1.
    private func group(of prefix: UnsafeBufferPointer<UInt8>) -> Int32 {
        var head = Self.none
        _ = groups.first(key: WordBytes.hash(prefix), tag: Int32(prefix.count)) { first in
            let start = Int(wildcards[Int(first)].start)
            guard equalsStored(prefix, at: start) else { return false }
            head = first
            return true
        }
        return head
    }

    /// The id of the pattern spelled by `bytes`, whose hash is `hash`, if present.
    func find(_ spelling: Spelling) -> Int? {
        let bytes = spelling.bytes
        let table = spelling.firstStar == nil ? exact : wildcardsBySpelling
        var found: Int?
        _ = table.first(key: spelling.hash, tag: Int32(truncatingIfNeeded: bytes.count)) { id in
            guard equalsStored(bytes, at: Int(ends[Int(id)]) - bytes.count) else { return false }
            found = Int(id)
            return true
        }
        return found
    }

    /// Whether `bytes` equal the stored bytes from `start` (which are at least as many).
    private func equalsStored(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        return storage.withUnsafeBufferPointer {
            WordBytes.equal($0.baseAddress! + start, base, count: bytes.count)
        }
    }

    /// The pattern with id `id`.
    func pattern(_ id: Int) -> String {
        let start = id == 0 ? 0 : Int(ends[id - 1])
        return String(decoding: storage[start..<Int(ends[id])], as: UTF8.self)
    }

    // MARK: - Lookup

    /// Whether some pattern matches the `count` bytes at `text`.
    @inline(never)
    func containsMatch(_ text: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        walk(text, count) { _ in true }
    }

    /// Writes the ids of the patterns matching the `count` bytes at `text` to `ids` and returns
    /// how many there are, or -1 when more match than `ids` holds.
    @inline(never)
    func collectMatches(
        _ text: UnsafePointer<UInt8>, _ count: Int, into ids: UnsafeMutableBufferPointer<Int32>
    )
        -> Int
    {
        var found = 0
        let overflowed = walk(text, count) { id in
            guard found < ids.count else { return true }
            ids[found] = id
            found += 1
            return false
        }
        return overflowed ? -1 : found
    }

    /// Calls `visit` with the id of each pattern matching the `count` bytes at `text` until it
    /// returns true, and returns whether it did.
    func forEachMatch(_ text: UnsafePointer<UInt8>, _ count: Int, _ visit: (Int) -> Bool) -> Bool {
        walk(text, count) { visit(Int($0)) }
    }

    /// The lookup itself, inlined into each of the three above so that `visit` is too: the exact
    /// pattern equal to the text first, then the wildcards by ascending prefix length.
    ///
    /// `text` must have `count` readable bytes (any address when `count` is 0: it is not read).
    @inline(__always)
    private func walk(_ text: UnsafePointer<UInt8>, _ count: Int, _ visit: (Int32) -> Bool) -> Bool {
        storage.withUnsafeBufferPointer { storage in
            wildcards.withUnsafeBufferPointer { wildcards in
                // An empty `storage` has no address; no run of 0 bytes is read, and every other
                // run an entry names lies inside it.
                let patterns = storage.baseAddress ?? WordBytes.nowhere
                if exact.count > 0 {
                    var stopped = false
                    let key = WordBytes.hash(text, count: count)
                    _ = exact.first(key: key, tag: Int32(truncatingIfNeeded: count)) { id in
                        let end = ends.withUnsafeBufferPointer { Int($0[Int(id)]) }
                        guard WordBytes.equal(patterns + (end &- count), text, count: count) else {
                            return false
                        }
                        stopped = visit(id)
                        // Patterns are distinct: no other exact pattern equals the text.
                        return true
                    }
                    if stopped { return true }
                }
                var member = emptyPrefixGroup
                while member != Self.none {
                    let wildcard = wildcards[Int(member)]
                    if matchesAfterPrefix(wildcard, text, count, patterns) && visit(wildcard.id) {
                        return true
                    }
                    member = wildcard.next
                }
                return prefixLengths.withUnsafeBufferPointer { lengths in
                    var state = WordBytes.seed
                    var hashed = 0
                    var stopped = false
                    for length32 in lengths {
                        let length = Int(length32)
                        if length > count { return false }
                        let fullWords = length & ~7
                        while hashed < fullWords {
                            state = WordBytes.mix(state, WordBytes.word(text, hashed))
                            hashed &+= 8
                        }
                        let tail = WordBytes.partialWord(
                            text, offset: fullWords, count: length & 7, available: count)
                        let key = WordBytes.finish(state, tail: tail, length: length)
                        _ = groups.first(key: key, tag: length32) { first in
                            // Every member of a group has the same prefix; compare it once.
                            let head = wildcards[Int(first)]
                            guard WordBytes.equal(patterns + Int(head.start), text, count: length) else {
                                return false
                            }
                            var member = first
                            while member != Self.none {
                                let wildcard = wildcards[Int(member)]
                                if matchesAfterPrefix(wildcard, text, count, patterns) && visit(wildcard.id) {
                                    stopped = true
                                    break
                                }
                                member = wildcard.next
                            }
                            // The prefix matched, so no other group of this length can.
                            return true
                        }
                        if stopped { return true }
                    }
                    return false
                }
            }
        }
    }

    // MARK: - Matching

    /// Whether `wildcard` matches the text, given that the text starts with its prefix.
    @inline(__always)
    private func matchesAfterPrefix(
        _ wildcard: Wildcard, _ text: UnsafePointer<UInt8>, _ count: Int, _ patterns: UnsafePointer<UInt8>
    ) -> Bool {
        // `prefix*` (the most common shape): whatever follows the prefix matches.
        if wildcard.suffixLength == 0 && wildcard.runCount == 0 { return true }
        // In range: `count` is at least the prefix length, and the suffix lies inside the pattern.
        let suffixLength = Int(wildcard.suffixLength)
        guard count &- Int(wildcard.prefixLength) >= suffixLength else { return false }
        let patternEnd = patterns + (Int(wildcard.start) &+ Int(wildcard.length))
        guard WordBytes.equal(patternEnd - suffixLength, text + (count &- suffixLength), count: suffixLength)
        else {
            return false
        }
        return wildcard.runCount == 0 || middleRunsMatch(wildcard, text, count, patterns)
    }

    /// Whether the literal runs between the first and the last star of `wildcard` occur in order,
    /// without overlapping, between its prefix and its suffix in the text. Each run is taken at
    /// its leftmost place: any later place leaves less text for the runs after it, so this never
    /// loses a match, and it decides in at most `text × pattern` steps without backtracking.
    private func middleRunsMatch(
        _ wildcard: Wildcard, _ text: UnsafePointer<UInt8>, _ count: Int, _ patterns: UnsafePointer<UInt8>
    ) -> Bool {
        let pattern = patterns + Int(wildcard.start)
        let end = count - Int(wildcard.suffixLength)
        var position = Int(wildcard.prefixLength)
        for pair in 0..<Int(wildcard.runCount) {
            let runIndex = Int(wildcard.firstRun) + 2 * pair
            let run = pattern + Int(middleRuns[runIndex])
            let runLength = Int(middleRuns[runIndex + 1])
            guard let found = Self.search(run, runLength, in: text, from: position, to: end) else {
                return false
            }
            position = found + runLength
        }
        return true
    }

    /// The first index at or after `from` where the `length` bytes at `run` (at least one)
    /// occur in `text[from..<to]`. Candidates (places holding the run's first byte) are found
    /// 8 at a time: a word of text XOR the first byte repeated has a zero byte at each; the
    /// zero-byte test may also flag a byte above a true zero, which the comparison rejects.
    private static func search(
        _ run: UnsafePointer<UInt8>, _ length: Int, in text: UnsafePointer<UInt8>, from: Int, to: Int
    ) -> Int? {
        // Wrapping arithmetic: every value lies between 0 and the text's length.
        let last = to &- length
        let ones: UInt64 = 0x0101_0101_0101_0101
        let repeated = UInt64(run[0]) &* ones
        var index = from
        while index &+ 8 <= to && index <= last {
            let difference = WordBytes.word(text, index) ^ repeated
            var zeros = (difference &- ones) & ~difference & (ones &<< 7)
            while zeros != 0 {
                let candidate = index &+ (zeros.trailingZeroBitCount &>> 3)
                if candidate > last { return nil }
                if WordBytes.equal(run, text + candidate, count: length) { return candidate }
                zeros &= zeros &- 1
            }
            index &+= 8
        }
        while index <= last {
            if text[index] == run[0] && WordBytes.equal(run, text + index, count: length) { return index }
            index &+= 1
        }
        return nil
    }
}
