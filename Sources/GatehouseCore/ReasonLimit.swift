/// The most a verdict's reason may hold: it may quote what an attacker controls (a huge
/// resource), and bounded it stays cheap to show and log.
package enum ReasonLimit {
    package static let characters = 1_000
    /// The most bytes of UTF-8 a reason keeps: a character may be long (a letter followed by a
    /// thousand combining marks is one), so characters alone do not bound a reason's size.
    package static let bytes = 4 * characters

    /// `reason`, or its longest start within the limits cut between two characters, then `…`.
    package static func bounded(_ reason: String) -> String {
        // A character is at least one byte: a reason within `characters` bytes is short enough.
        if reason.utf8.count <= characters { return reason }
        var end = reason.startIndex
        var kept = (characters: 0, bytes: 0)
        while end < reason.endIndex && kept.characters < characters {
            let next = reason.index(after: end)
            let size = reason.utf8.distance(from: end, to: next)
            if kept.bytes + size > bytes { break }
            kept = (kept.characters + 1, kept.bytes + size)
            end = next
        }
        return end == reason.endIndex ? reason : reason[..<end] + "…"
    }
}
