import GatehouseCore

/// The one pattern matcher of rules files and allow-lists, on UTF-8 bytes: `*` matches any run,
/// and `{subject}` or `{NAME}` the request's value literally.
package enum Glob {
    /// Whether `pattern` matches `text`, whose first `skipping` bytes are known to be the same, in at
    /// most `text × pattern` steps. Braces are placeholders only with a `request`; `stars: false`
    /// makes `*` literal.
    package static func matches(
        _ pattern: String, _ text: String, values request: AccessRequest? = nil, stars: Bool = true,
        skipping: Int = 0
    ) -> Bool {
        let pattern = pattern.utf8
        let text = text.utf8
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
                } else if t < text.endIndex && text[t] == byte {
                    p = pattern.index(after: p)
                    t = text.index(after: t)
                    continue
                }
            }
            // A mismatch: the last star takes one more byte, or nothing matches.
            guard let afterStar, starEnd < text.endIndex else { return false }
            starEnd = text.index(after: starEnd)
            // Only where the text has the byte after the star can the walk go on.
            let next = pattern[afterStar]
            if next != openBrace || request == nil {
                starEnd = text[starEnd...].firstIndex(of: next) ?? text.endIndex
            }
            t = starEnd
            p = afterStar
        }
    }

    /// Whether `a` and `b` are the same bytes (`==` compares by canonical equivalence).
    package static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// The value of the placeholder `{name}` in `request`, in NFC, or `nil` when it is missing,
    /// empty, `.`, `..`, or holds `/` or a control character: a usable value is one path component,
    /// so `tenants/{tenant}/*` cannot reach another tenant's folder or a parent folder.
    static func placeholderValue(_ name: Substring, in request: AccessRequest) -> String? {
        guard let value = name == "subject" ? request.subject : request.attributes[String(name)],
            !value.isEmpty, value != ".", value != "..",
            !value.unicodeScalars.contains(where: { $0 == "/" || ResourceIdentity.isControl($0) })
        else { return nil }
        return ResourceIdentity.normalized(value)
    }

    /// Checks that every brace of `pattern` is part of a placeholder `{NAME}`.
    static func checkPlaceholders(_ pattern: Substring) throws(PatternSyntaxError) {
        var rest = pattern
        while let brace = rest.utf8.firstIndex(where: { $0 == openBrace || $0 == closeBrace }) {
            guard rest.utf8[brace] == openBrace else { throw .strayClosingBrace }
            guard let close = rest.utf8[brace...].firstIndex(of: closeBrace) else { throw .unclosedBrace }
            let name = rest[rest.utf8.index(after: brace)..<close]
            guard isName(name) else { throw .badPlaceholderName(String(name)) }
            rest = rest[rest.utf8.index(after: close)...]
        }
    }

    /// Whether `name` is a placeholder or condition key name: ASCII letters, digits, `_`, `-`, `.`.
    static func isName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
    }

    static let star = UInt8(ascii: "*")
    static let slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
}

/// Why a pattern's braces do not form placeholders.
enum PatternSyntaxError: Error, Equatable {
    case unclosedBrace
    case strayClosingBrace
    case badPlaceholderName(String)

    var message: String {
        switch self {
        case .unclosedBrace:
            "a \"{\" without a matching \"}\"; a placeholder is written {subject} or {NAME}"
        case .strayClosingBrace:
            "a \"}\" without a \"{\" before it; a placeholder is written {subject} or {NAME}"
        case .badPlaceholderName(let name):
            "the placeholder {\(name)}: a name is letters, digits, \"_\", \"-\" and \".\", at least one"
        }
    }
}
