#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A set of patterns that answers "which patterns match this text?" without scanning them.
///
/// A pattern is an exact string, or contains `*`, which matches any run of characters (`/`
/// included, the empty run too); several `*` may appear (`avatars/*/private-*`). Matching is on
/// UTF-8 bytes: no Unicode normalization, no case folding.
///
/// Every distinct pattern gets an id, `0, 1, 2, ...` in order of first insertion; inserting the
/// same pattern again returns its existing id. Lookup cost does not grow with the number of
/// patterns:
/// - exact patterns sit in a hash table keyed by a hash of their bytes;
/// - a wildcard pattern sits in a hash table keyed by its literal prefix (the bytes before its
///   first `*`) and that prefix's length. A lookup walks the text once, hashing it byte by byte,
///   and at each length that some prefix has, probes the table: it visits only the wildcard
///   patterns whose prefix is a prefix of the text (a trie walk, with hashed nodes).
///   The rest of each candidate is matched run by run (the literal bytes between stars, each
///   found leftmost), so it takes at most `O(text × pattern)` steps, never exponential time.
///
/// Hash collisions are resolved by comparing bytes, so a match is always exact.
package struct PatternIndex: Sendable {
    private static let star = UInt8(ascii: "*")
    private static let none: Int32 = -1

    /// All patterns' bytes, back to back; pattern `i` ends at `ends[i]`.
    private var storage: [UInt8] = []
    private var ends: [Int32] = []
    /// For each pattern: the length of its literal prefix, or -1 for an exact pattern.
    private var prefixLengths: [Int32] = []
    /// Whole-pattern hash → first pattern id with that hash; `wholeChain` links the rest.
    private var byWhole = HashSlots()
    private var wholeChain: [Int32] = []
    /// Prefix hash and length → first wildcard pattern id; `prefixChain` links the rest.
    private var byPrefix = HashSlots()
    private var prefixChain: [Int32] = []
    /// `prefixLengthUsed[n]` is true when some wildcard pattern has a literal prefix of n bytes.
    private var prefixLengthUsed: [Bool] = []

    /// Creates an empty index.
    package init() {}

    /// Creates an index of `patterns`; pattern ids follow the order of first appearance.
    package init(_ patterns: some Sequence<String>) {
        for pattern in patterns {
            insert(pattern)
        }
    }

    /// The number of distinct patterns.
    package var count: Int { ends.count }

    /// Adds `pattern` and returns its id (the existing id if it was already present).
    @discardableResult
    package mutating func insert(_ pattern: String) -> Int {
        var pattern = pattern
        return pattern.withUTF8 { insert(bytes: $0) }
    }

    /// Adds the pattern spelled by `bytes` (UTF-8) and returns its id.
    @discardableResult
    package mutating func insert(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let hash = Self.hash(bytes)
        if let existing = find(bytes: bytes, hash: hash) {
            return existing
        }
        let id = Int32(ends.count)
        storage.append(contentsOf: bytes)
        ends.append(Int32(storage.count))
        wholeChain.append(byWhole.updateValue(id, for: hash) ?? Self.none)
        if let star = bytes.firstIndex(of: Self.star) {
            let prefixHash = Self.hash(UnsafeBufferPointer(rebasing: bytes[..<star]))
            let key = Self.prefixKey(prefixHash, length: star)
            prefixChain.append(byPrefix.updateValue(id, for: key) ?? Self.none)
            prefixLengths.append(Int32(star))
            if prefixLengthUsed.count <= star {
                prefixLengthUsed.append(
                    contentsOf: repeatElement(false, count: star + 1 - prefixLengthUsed.count))
            }
            prefixLengthUsed[star] = true
        } else {
            prefixChain.append(Self.none)
            prefixLengths.append(Self.none)
        }
        return Int(id)
    }

    /// The id of `pattern` if it is in the index (the pattern itself, not a pattern matching it).
    package func id(of pattern: String) -> Int? {
        var pattern = pattern
        return pattern.withUTF8 { find(bytes: $0, hash: Self.hash($0)) }
    }

    /// The pattern with id `id`.
    package func pattern(_ id: Int) -> String {
        let start = id == 0 ? 0 : Int(ends[id - 1])
        return String(decoding: storage[start..<Int(ends[id])], as: UTF8.self)
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
        var text = text
        return text.withUTF8 { forEachMatch(of: $0, visit) }
    }

    /// Calls `visit` with the id of each pattern that matches the UTF-8 `text` until `visit`
    /// returns true.
    ///
    /// - Returns: Whether `visit` returned true (stopped the walk).
    @discardableResult
    package func forEachMatch(of text: UnsafeBufferPointer<UInt8>, _ visit: (Int) -> Bool) -> Bool {
        storage.withUnsafeBufferPointer { storage in
            var hash = Self.hashSeed
            let longestPrefix = min(text.count, prefixLengthUsed.count - 1)
            for length in 0...text.count {
                if length <= longestPrefix && prefixLengthUsed[length] {
                    var id = byPrefix.value(for: Self.prefixKey(hash, length: length)) ?? Self.none
                    while id != Self.none {
                        if prefixLengths[Int(id)] == length
                            && matchesWildcard(Int(id), text, prefixLength: length, storage: storage)
                            && visit(Int(id))
                        {
                            return true
                        }
                        id = prefixChain[Int(id)]
                    }
                }
                if length < text.count {
                    hash = Self.step(hash, text[length])
                }
            }
            var id = byWhole.value(for: hash) ?? Self.none
            while id != Self.none {
                if prefixLengths[Int(id)] == Self.none && Self.equal(bytes(of: Int(id), in: storage), text)
                    && visit(Int(id))
                {
                    return true
                }
                id = wholeChain[Int(id)]
            }
            return false
        }
    }

    // MARK: - Matching

    private func bytes(of id: Int, in storage: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = id == 0 ? 0 : Int(ends[id - 1])
        return UnsafeBufferPointer(rebasing: storage[start..<Int(ends[id])])
    }

    private func find(bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        storage.withUnsafeBufferPointer { storage in
            var id = byWhole.value(for: hash) ?? Self.none
            while id != Self.none {
                if Self.equal(self.bytes(of: Int(id), in: storage), bytes) {
                    return Int(id)
                }
                id = wholeChain[Int(id)]
            }
            return nil
        }
    }

    /// Whether wildcard pattern `id` matches `text`, given that the text is at least
    /// `prefixLength` bytes long and their hashes of the first `prefixLength` bytes agree.
    private func matchesWildcard(
        _ id: Int, _ text: UnsafeBufferPointer<UInt8>, prefixLength: Int, storage: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let pattern = bytes(of: id, in: storage)
        guard
            Self.equal(
                UnsafeBufferPointer(rebasing: pattern[..<prefixLength]),
                UnsafeBufferPointer(rebasing: text[..<prefixLength]))
        else { return false }
        return Self.globMatch(
            UnsafeBufferPointer(rebasing: pattern[prefixLength...]),
            UnsafeBufferPointer(rebasing: text[prefixLength...]))
    }

    /// Glob match where `*` is the only special byte. The literal runs between stars are matched
    /// leftmost-first: the run before the first star must start the text, the run after the last
    /// star must end it, and each run in between is searched for after the previous one. Taking
    /// the earliest place for each middle run never loses a match (any later place leaves less
    /// text for the runs after it), so this decides in at most `text × pattern` steps, without
    /// backtracking and without allocating.
    static func globMatch(_ pattern: UnsafeBufferPointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let firstStar = pattern.firstIndex(of: star) else {
            return equal(pattern, text)
        }
        var lastStar = pattern.count - 1
        while pattern[lastStar] != star { lastStar -= 1 }
        let tail = pattern.count - lastStar - 1
        guard firstStar + tail <= text.count,
            equal(slice(pattern, 0, firstStar), slice(text, 0, firstStar)),
            equal(slice(pattern, lastStar + 1, pattern.count), slice(text, text.count - tail, text.count))
        else { return false }
        var position = firstStar
        let end = text.count - tail
        var runStart = firstStar + 1
        while runStart < lastStar {
            var runEnd = runStart
            while pattern[runEnd] != star { runEnd += 1 }
            if runEnd > runStart {
                guard let found = search(slice(pattern, runStart, runEnd), in: text, from: position, to: end)
                else { return false }
                position = found + (runEnd - runStart)
            }
            runStart = runEnd + 1
        }
        return true
    }

    /// Whether two byte runs are equal.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    private static func slice(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
        -> UnsafeBufferPointer<UInt8>
    {
        UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The first index at or after `from` where `run` (not empty) occurs in `text[from..<to]`.
    private static func search(
        _ run: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, from: Int, to: Int
    ) -> Int? {
        let first = run[0]
        var index = from
        while index + run.count <= to {
            if text[index] == first && equal(run, slice(text, index, index + run.count)) {
                return index
            }
            index += 1
        }
        return nil
    }

    // MARK: - Hashing (FNV-1a, 64 bit; the tables rehash the value, collisions are checked)

    private static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325

    private static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = hashSeed
        for byte in bytes {
            hash = step(hash, byte)
        }
        return hash
    }

    private static func prefixKey(_ hash: UInt64, length: Int) -> UInt64 {
        hash ^ (UInt64(length) &* 0x9e37_79b9_7f4a_7c15)
    }
}
