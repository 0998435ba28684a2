import GatehouseCore

/// One pattern of an allow-list or a rules field: literal text, `*` (any run of characters, `/`
/// included, the empty run too) and, in a rules file's resources, placeholders such as
/// `{subject}` that stand for a value of the request.
///
/// Matching is on UTF-8 bytes: no normalization, no case folding. A placeholder's value is
/// matched literally (a `*` in it is text).
final class Pattern: Sendable {
    /// A piece of a pattern.
    enum Part: Sendable, Hashable {
        /// Literal bytes (never empty).
        case text([UInt8])
        /// `*`.
        case star
        /// A value of the request, matched literally.
        case placeholder(Placeholder)
    }

    /// The literal bytes before the first star or placeholder.
    let prefix: [UInt8]
    /// Whether the pattern is literal text only (no star, no placeholder).
    let isExact: Bool
    /// The literal runs between the stars, worked out once for a pattern without placeholders
    /// (a pattern starting or ending with a star has an empty first or last run).
    private let runs: [[UInt8]]?
    /// The pieces in order, kept for a pattern with placeholders.
    private let parts: [Part]

    /// The pattern spelled `spelling`, with placeholders when `placeholders` is true (in a
    /// rules file's resources and condition values) and braces as literal text otherwise; with
    /// `stars` false (a condition's value), `*` is literal text too.
    ///
    /// - Throws: ``PatternSyntaxError`` for a brace that does not form a placeholder.
    init(_ spelling: some StringProtocol, placeholders: Bool, stars: Bool = true) throws(PatternSyntaxError) {
        let bytes = Array(spelling.utf8)
        var parts: [Part] = []
        var textStart = 0
        var index = 0
        func flushText(upTo end: Int) {
            if textStart < end { parts.append(.text(Array(bytes[textStart..<end]))) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if stars && byte == UInt8(ascii: "*") {
                flushText(upTo: index)
                if parts.last != .star { parts.append(.star) }
                textStart = index + 1
            } else if placeholders && byte == UInt8(ascii: "{") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw .unclosedBrace
                }
                flushText(upTo: index)
                let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                parts.append(.placeholder(try Placeholder(name: name)))
                index = close
                textStart = close + 1
            } else if placeholders && byte == UInt8(ascii: "}") {
                throw .strayClosingBrace
            }
            index += 1
        }
        flushText(upTo: bytes.count)
        if case .text(let first)? = parts.first {
            prefix = first
        } else {
            prefix = []
        }
        isExact = parts.allSatisfy { if case .text = $0 { true } else { false } }
        let hasPlaceholder = parts.contains { if case .placeholder = $0 { true } else { false } }
        self.parts = hasPlaceholder ? parts : []
        runs = hasPlaceholder ? nil : Self.runs(parts) { _ in nil }
    }

    /// Whether the pattern is `*` alone (matching every text, not looking at it).
    var matchesEverything: Bool { runs?.count == 2 && runs?[0].isEmpty == true && runs?[1].isEmpty == true }

    /// Whether `text` matches; `values` gives each placeholder's value, or `nil` when it has
    /// none (then nothing matches).
    func matches(_ text: [UInt8], values: (Placeholder) -> [UInt8]?) -> Bool {
        guard let runs = runs ?? Self.runs(parts, values) else { return false }
        return Self.globMatch(runs: runs, text)
    }
    /// The literal runs between the stars, placeholders replaced by their values; `nil` when a
    /// placeholder has no value. A pattern starting (ending) with a star has an empty first
    /// (last) run.
    private static func runs(_ parts: [Part], _ values: (Placeholder) -> [UInt8]?) -> [[UInt8]]? {
        var runs: [[UInt8]] = []
        var current: [UInt8] = []
        for part in parts {
            switch part {
            case .text(let bytes):
                current += bytes
            case .placeholder(let placeholder):
                guard let value = values(placeholder) else { return nil }
                current += value
            case .star:
                runs.append(current)
                current = []
            }
        }
        runs.append(current)
        return runs
    }

    /// Whether `text` is the literal runs separated by any text: the first run at the start,
    /// the last at the end (one run alone: the whole text), and each run between taken at its
    /// leftmost place after the one before. A later place would leave less text for the runs
    /// after it, so the leftmost never loses a match; the walk takes at most `text × pattern`
    /// steps.
    private static func globMatch(runs: [[UInt8]], _ text: [UInt8]) -> Bool {
        if runs.count == 1 { return runs[0] == text }
        let first = runs[0]
        let last = runs[runs.count - 1]
        guard first.count + last.count <= text.count, text.starts(with: first),
            text[(text.count - last.count)...].elementsEqual(last)
        else { return false }
        var position = first.count
        let end = text.count - last.count
        for run in runs[1..<(runs.count - 1)] {
            guard let found = firstIndex(of: run, in: text, from: position, to: end) else { return false }
            position = found + run.count
        }
        return true
    }

    /// The first index at or after `from` where `run` occurs in `text[from..<to]`.
    private static func firstIndex(of run: [UInt8], in text: [UInt8], from: Int, to: Int) -> Int? {
        guard !run.isEmpty else { return from }
        guard to - from >= run.count else { return nil }
        for start in from...(to - run.count) where text[start] == run[0] {
            if text[start..<(start + run.count)].elementsEqual(run) { return start }
        }
        return nil
    }
}

/// What a placeholder stands for: the request's subject, or one of its attributes.
enum Placeholder: Sendable, Hashable {
    /// `{subject}`.
    case subject
    /// `{NAME}`: the request attribute `NAME`.
    case attribute(String)

    /// The placeholder `{name}`.
    ///
    /// - Throws: ``PatternSyntaxError/badPlaceholderName(_:)`` for an empty name or one holding
    ///   other than letters, digits, `_`, `-` and `.`.
    init(name: String) throws(PatternSyntaxError) {
        guard Self.isName(name) else { throw .badPlaceholderName(name) }
        self = name == "subject" ? .subject : .attribute(name)
    }

    /// Whether `name` is a placeholder or condition key name: ASCII letters, digits, `_`, `-`
    /// and `.`, at least one.
    static func isName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
    }

    /// The placeholder's value in `request`, as UTF-8 bytes in NFC, or `nil` when it has none a
    /// rule may use: missing, empty, or holding `/` or a control character.
    func value(in request: AccessRequest) -> [UInt8]? {
        let value: String?
        switch self {
        case .subject: value = request.subject
        case .attribute(let name): value = request.attributes[name]
        }
        guard let value, !value.isEmpty,
            !value.unicodeScalars.contains(where: { $0 == "/" || ResourceIdentity.isControl($0) })
        else { return nil }
        return Array(PatternCharacters.normalized(value).utf8)
    }

    /// How the placeholder is written.
    var spelling: String {
        switch self {
        case .subject: "{subject}"
        case .attribute(let name): "{\(name)}"
        }
    }
}

/// Why a pattern's braces do not form placeholders.
enum PatternSyntaxError: Error, Equatable {
    /// A `{` with no `}` after it.
    case unclosedBrace
    /// A `}` with no `{` before it.
    case strayClosingBrace
    /// `{}` or a name holding other than letters, digits, `_`, `-`, `.`.
    case badPlaceholderName(String)

    /// The problem in words, for a rules-file error.
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
