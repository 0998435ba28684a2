import GatehouseCore

/// Patterns found by the text they match without a scan: exact ones in a dictionary, the others by
/// literal folder (`docs/report-*` → `docs/`), a text running the one matcher (`AccessPlan/Pattern`) on its folders' patterns only.
package struct PatternLookup: Sendable {
    /// The patterns, by id (their place in the array given).
    package let patterns: [String]
    private let exact: [String: Int32]
    /// The ids of the patterns with wildcards: folder `n` has `grouped[parts[n].start..<parts[n].end]`.
    private let grouped: [Int32]
    private let folders: [Substring: Int32]
    private let parts: [Part]
    private let anywhere: Part?
    private let longestFolder: Int

    private struct Part: Sendable {
        var start: Int32 = 0
        var end: Int32 = 0
    }

    /// Indexes `patterns`; with `placeholders`, braces form placeholders (see `AccessPlan/Pattern`).
    package init(_ patterns: [String], placeholders: Bool = false) {
        let folderLengths = patterns.map { Int32(Self.folderLength(of: $0, placeholders)) }
        var exact: [String: Int32] = [:]
        var folders: [Substring: Int32] = [:]
        folders.reserveCapacity(folderLengths.count { $0 >= 0 })
        // A counting sort: number the folders and count their patterns, then place the ids.
        var folderOf = [Int32](repeating: -1, count: patterns.count)
        var parts: [Part] = []
        for (id, length) in folderLengths.enumerated() {
            guard length >= 0 else {
                exact[patterns[id]] = Int32(id)
                continue
            }
            let folder = folders.value(
                for: Substring(patterns[id].utf8.prefix(Int(length))), inserting: Int32(parts.count))
            if folder == parts.count { parts.append(Part()) }
            parts[Int(folder)].end += 1
            folderOf[id] = folder
        }
        var start: Int32 = 0
        for folder in parts.indices {
            let count = parts[folder].end
            parts[folder] = Part(start: start, end: start)
            start += count
        }
        var grouped = [Int32](repeating: 0, count: Int(start))
        for (id, folder) in folderOf.enumerated() where folder >= 0 {
            grouped[Int(parts[Int(folder)].end)] = Int32(id)
            parts[Int(folder)].end += 1
        }
        self.patterns = patterns
        self.exact = exact
        self.grouped = grouped
        self.folders = folders
        self.parts = parts
        self.anywhere = folders[""].map { parts[Int($0)] }
        self.longestFolder = Int(folderLengths.max() ?? 0)
    }

    /// The length in UTF-8 bytes of the folder `pattern` is grouped under, or -1 when it is exact.
    private static func folderLength(of pattern: String, _ placeholders: Bool) -> Int {
        var length = 0
        var folder = 0
        for byte in pattern.utf8 {
            if byte == AccessPlan.Pattern.star || (placeholders && byte == AccessPlan.Pattern.openBrace) {
                return folder
            }
            length += 1
            if byte == AccessPlan.Pattern.slash { folder = length }
        }
        return -1
    }

    /// Whether any pattern matches `text`.
    package func contains(match text: String) -> Bool {
        forEachMatch(of: text) { _ in true }
    }

    /// Calls `body` with the id of each pattern that matches `text` until it returns true, and
    /// says whether it did; placeholders take their values from `request`.
    @discardableResult
    package func forEachMatch(of text: String, values request: AccessRequest? = nil, _ body: (Int) -> Bool)
        -> Bool
    {
        // Dictionaries compare strings by canonical equivalence; patterns match bytes.
        if !exact.isEmpty, let id = exact[text], AccessPlan.Pattern.sameBytes(patterns[Int(id)], text),
            body(Int(id))
        {
            return true
        }
        guard !folders.isEmpty else { return false }
        // The patterns of `folder`, the text's first `length` bytes; when ASCII, they are the
        // folder's bytes too (both are NFC), and matching starts after them.
        func visit(_ folder: Substring, length: Int, isASCII: Bool) -> Bool {
            guard let part = length == 0 ? anywhere : folders[folder].map({ parts[Int($0)] }) else {
                return false
            }
            for position in part.start..<part.end {
                let id = Int(grouped[Int(position)])
                if AccessPlan.Pattern.matches(
                    patterns[id], text, values: request, skipping: isASCII ? length : 0)
                    && body(id)
                {
                    return true
                }
            }
            return false
        }
        let bytes = text.utf8
        if visit(Substring(bytes[..<bytes.startIndex]), length: 0, isASCII: true) { return true }
        var index = bytes.startIndex
        var length = 0
        var isASCII = true
        while length < longestFolder && index < bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            length += 1
            isASCII = isASCII && byte < 0x80
            if byte == AccessPlan.Pattern.slash
                && visit(Substring(bytes[..<index]), length: length, isASCII: isASCII)
            {
                return true
            }
        }
        return false
    }
}

extension Dictionary where Value == Int32 {
    /// The value under `key`, or else `new`, then stored there: one look-up.
    mutating func value(for key: Key, inserting new: Int32) -> Int32 {
        func take(_ slot: inout Int32?) -> Int32 {
            if let value = slot { return value }
            slot = new
            return new
        }
        return take(&self[key])
    }
}
