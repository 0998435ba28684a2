import GatehouseCore

/// Patterns found by the text they match, without scanning them all.
///
/// An exact pattern is found by a dictionary look-up of the text. The others (with `*`, or
/// with placeholders) are grouped by their folder: the literal text before the first `*` or
/// `{`, cut back to just after its last `/` (`docs/report-*` and `docs/*.txt` → `docs/`,
/// `*.png` → nothing). A text looks up the group of no folder and of each folder it starts with
/// (one look-up per `/`, up to the longest folder a group has), and runs ``Glob`` on the
/// patterns there. So the cost of a look-up depends on the patterns that share a folder with
/// the text, not on how many patterns there are.
package struct PatternLookup: Sendable {
    /// The patterns, by id: their place in the array they were given in.
    package let patterns: [String]
    private let exact: [String: Int32]
    /// The ids of the patterns with wildcards, folder by folder; `folders` gives each folder's part.
    private let grouped: [Int32]
    private let folders: [Substring: Part]
    /// The length in UTF-8 bytes of the longest folder: no longer start of a text is looked up.
    private let longestFolder: Int

    /// Where a folder's ids are in `grouped`.
    private struct Part: Sendable {
        var start: Int32 = 0
        var end: Int32 = 0
    }

    /// Indexes `patterns`; with `placeholders`, braces form placeholders (see ``Glob``).
    package init(_ patterns: [String], placeholders: Bool = false) {
        var exact: [String: Int32] = [:]
        var folders: [Substring: Part] = [:]
        var longestFolder = 0
        // A counting sort: count each folder's patterns, give each folder its part of
        // `grouped`, then place the ids.
        for (id, pattern) in patterns.enumerated() {
            if let folder = Self.folder(of: pattern, placeholders) {
                folders[folder, default: Part()].end += 1
                longestFolder = max(longestFolder, folder.utf8.count)
            } else {
                exact[pattern] = Int32(id)
            }
        }
        var start: Int32 = 0
        for index in folders.indices {
            let count = folders.values[index].end
            folders.values[index] = Part(start: start, end: start)
            start += count
        }
        var grouped = [Int32](repeating: 0, count: Int(start))
        for (id, pattern) in patterns.enumerated() {
            guard let folder = Self.folder(of: pattern, placeholders) else { continue }
            let next = folders[folder, default: Part()].end
            grouped[Int(next)] = Int32(id)
            folders[folder, default: Part()].end = next + 1
        }
        self.patterns = patterns
        self.exact = exact
        self.grouped = grouped
        self.folders = folders
        self.longestFolder = longestFolder
    }

    /// The folder `pattern` is grouped under, or `nil` when it is exact.
    private static func folder(of pattern: String, _ placeholders: Bool) -> Substring? {
        let bytes = pattern.utf8
        guard
            let wildcard = bytes.firstIndex(where: {
                $0 == Glob.star || (placeholders && $0 == Glob.openBrace)
            })
        else { return nil }
        let end = bytes[..<wildcard].lastIndex(of: Glob.slash).map(bytes.index(after:)) ?? bytes.startIndex
        return pattern[..<end]
    }

    /// Whether any pattern matches `text`.
    package func contains(match text: String) -> Bool {
        forEachMatch(of: text) { _ in true }
    }

    /// Calls `body` with the id of each pattern that matches `text`, in no particular order,
    /// until it returns true; placeholders take their values from `request`.
    ///
    /// - Returns: Whether `body` returned true.
    @discardableResult
    package func forEachMatch(of text: String, values request: AccessRequest? = nil, _ body: (Int) -> Bool)
        -> Bool
    {
        // Dictionaries compare strings by canonical equivalence; patterns match bytes.
        if let id = exact[text], patterns[Int(id)].utf8.elementsEqual(text.utf8), body(Int(id)) {
            return true
        }
        guard !folders.isEmpty else { return false }
        func visit(_ folder: Substring) -> Bool {
            guard let part = folders[folder] else { return false }
            for position in part.start..<part.end {
                let id = Int(grouped[Int(position)])
                if Glob.matches(patterns[id], text, values: request) && body(id) { return true }
            }
            return false
        }
        if visit(text[..<text.startIndex]) { return true }
        let bytes = text.utf8
        var index = bytes.startIndex
        var length = 0
        while length < longestFolder && index < bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            length += 1
            if byte == Glob.slash && visit(text[..<index]) { return true }
        }
        return false
    }
}
