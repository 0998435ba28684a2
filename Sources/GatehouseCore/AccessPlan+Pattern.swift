extension AccessPlan {
    /// A pattern over resource names: literal runs with a `*` between each two, which matches any
    /// run of characters (`/` included), byte for byte on UTF-8. Matched by the package's one
    /// matcher of the pattern language, `matches(_:_:values:stars:skipping:)` (package), which decisions,
    /// near misses and plans share.
    public struct Pattern: Sendable, Hashable, CustomStringConvertible {
        /// The literal runs, a `*` between each two: `["docs/", ""]` for `docs/*`, one run for an
        /// exact name. Never empty; no run but the first and last is empty.
        public let runs: [String]
        /// The runs joined by `*`, a `*` or `\` that is text escaped: what the matcher reads.
        private let escaped: String

        /// The pattern spelled `spelling`, each `*` a wildcard.
        package init(_ spelling: String) {
            // By scalar, as the engine reads bytes: a `*` followed by a combining mark, one
            // `Character` with it, is still a star.
            var runs = [""]
            for scalar in spelling.unicodeScalars {
                if scalar == "*" {
                    runs.append("")
                } else {
                    runs[runs.count - 1].unicodeScalars.append(scalar)
                }
            }
            self.init(runs: runs)
        }

        /// The pattern of these literal runs, a `*` between each two (a run's own `*` is text).
        public init(runs: [String]) {
            precondition(!runs.isEmpty, "a pattern has at least one run")
            let middle = runs.dropFirst().dropLast().filter { !$0.isEmpty }
            self.runs = runs.count == 1 ? runs : [runs[0]] + middle + [runs[runs.count - 1]]
            self.escaped = self.runs.map {
                $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "*", with: "\\*")
            }
            .joined(separator: "*")
        }

        /// Whether the pattern matches exactly one name (it has no `*`).
        var isExact: Bool { runs.count == 1 }

        /// Whether the pattern matches `name`.
        public func matches(_ name: String) -> Bool {
            Self.walk(escaped.utf8, name.utf8, values: nil, stars: true, escapes: true, skipping: 0)
        }

        /// The runs joined by `*`; a `*` or `\` that is text is written `\*` or `\\`.
        public var description: String { escaped }
    }
}

extension AccessPlan.Pattern {
    /// Whether the pattern spelled `spelling` (a rules file's or an allow-list's) matches `text`:
    /// `*` matches any run of bytes, and with a `request`, `{subject}` or `{NAME}` the request's
    /// value literally (``placeholderValue(_:in:)``); `stars: false` makes `*` text. The first
    /// `skipping` bytes of both are known to be the same. At most `text × pattern` steps.
    package static func matches(
        _ spelling: String, _ text: String, values request: AccessRequest? = nil, stars: Bool = true,
        skipping: Int = 0
    ) -> Bool {
        walk(spelling.utf8, text.utf8, values: request, stars: stars, escapes: false, skipping: skipping)
    }

    /// The one matcher: walks `pattern` over `text` byte by byte; on a mismatch the last star
    /// takes one more byte. With `escapes`, a `\` makes the byte after it text.
    private static func walk(
        _ pattern: String.UTF8View, _ text: String.UTF8View, values request: AccessRequest?, stars: Bool,
        escapes: Bool, skipping: Int
    ) -> Bool {
        var p = pattern.index(pattern.startIndex, offsetBy: skipping)
        var t = text.index(text.startIndex, offsetBy: skipping)
        // Where the pattern goes on after its last star, and where in the text that star's run ends.
        var afterStar: String.Index?
        var starEnd = t
        while true {
            if p == pattern.endIndex {
                if t == text.endIndex { return true }
            } else {
                let byte = pattern[p]
                if byte == star && stars {
                    p = pattern.index(after: p)
                    if p == pattern.endIndex { return true }
                    afterStar = p
                    starEnd = t
                    continue
                }
                if byte == openBrace, let request {
                    guard let close = pattern[p...].firstIndex(of: closeBrace),
                        let value = placeholderValue(
                            Substring(pattern[pattern.index(after: p)..<close]), in: request)
                    else { return false }
                    if text[t...].starts(with: value.utf8) {
                        p = pattern.index(after: close)
                        t = text.index(t, offsetBy: value.utf8.count)
                        continue
                    }
                } else {
                    let literal = literalByte(in: pattern, at: p, escapes: escapes)
                    if t < text.endIndex && text[t] == literal.byte {
                        p = literal.next
                        t = text.index(after: t)
                        continue
                    }
                }
            }
            // A mismatch: the last star takes one more byte, or nothing matches.
            guard let afterStar, starEnd < text.endIndex else { return false }
            starEnd = text.index(after: starEnd)
            // Only where the text has the byte after the star can the walk go on.
            if pattern[afterStar] != openBrace || request == nil {
                let next = literalByte(in: pattern, at: afterStar, escapes: escapes).byte
                starEnd = text[starEnd...].firstIndex(of: next) ?? text.endIndex
            }
            t = starEnd
            p = afterStar
        }
    }

    /// The text byte at `p` (the one after a `\` when escaped) and where the pattern goes on.
    private static func literalByte(in pattern: String.UTF8View, at p: String.Index, escapes: Bool)
        -> (byte: UInt8, next: String.Index)
    {
        let after = pattern.index(after: p)
        guard escapes, pattern[p] == backslash, after < pattern.endIndex else { return (pattern[p], after) }
        return (pattern[after], pattern.index(after: after))
    }

    /// Whether `a` and `b` are the same bytes (`==` compares by canonical equivalence).
    package static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// The value of the placeholder `{name}` in `request`, in NFC, or `nil` when it is missing,
    /// empty, `.`, `..`, or holds `/` or a control character: a usable value is one path component,
    /// so `tenants/{tenant}/*` cannot reach another tenant's folder or a parent folder.
    package static func placeholderValue(_ name: Substring, in request: AccessRequest) -> String? {
        guard let value = name == "subject" ? request.subject : request.attributes[String(name)],
            !value.isEmpty, value != ".", value != "..",
            !value.unicodeScalars.contains(where: { $0 == "/" || ResourceIdentity.isControl($0) })
        else { return nil }
        return ResourceIdentity.normalized(value)
    }

    /// `*`: any run of characters.
    package static let star = UInt8(ascii: "*")
    /// `/`: between a path's components.
    package static let slash = UInt8(ascii: "/")
    /// `{`: opens a placeholder.
    package static let openBrace = UInt8(ascii: "{")
    /// `}`: closes a placeholder.
    package static let closeBrace = UInt8(ascii: "}")
    /// `\`: in a pattern's ``description``, makes the byte after it text.
    private static let backslash = UInt8(ascii: "\\")
}
