import GatehouseCore

/// A rules-file pattern with placeholders (a resource, or a condition's value): literal text,
/// `*` (any run of characters, `/` included, the empty run too) and placeholders such as
/// `{subject}` that stand for a value of the request. `PatternIndex` matches the patterns
/// without placeholders itself.
///
/// Matching is on UTF-8 bytes: no normalization, no case folding. A placeholder's value is
/// matched literally (a `*` in it is text).
final class Pattern: Sendable {
    /// A piece of a pattern.
    enum Part: Sendable, Hashable {
        /// Literal bytes (never empty): this range of ``bytes``.
        case text(Range<Int>)
        /// A value of the request, matched literally.
        case placeholder(Placeholder)
        /// A star: it ends one segment and starts the next (consecutive stars are one).
        case star
    }

    /// How many literal bytes come before the first star or placeholder: the pattern's first
    /// bytes, which a `PatternIndex` groups patterns by.
    let prefixLength: Int
    /// The pattern's bytes, which `Part.text` ranges point into.
    private let bytes: [UInt8]
    /// The pieces, in order, with a `.star` between segments (a pattern starting or ending with
    /// a star has an empty first or last segment). The whole pattern is these two arrays, so a
    /// match reads little memory besides the text.
    private let parts: [Part]
    /// Where the last segment starts in ``parts`` (0 when there is no star).
    private let lastSegmentStart: Int

    /// The pattern spelled `spelling`; with `stars` false (a condition's value), `*` is literal
    /// text.
    ///
    /// - Throws: ``PatternSyntaxError`` for a brace that does not form a placeholder.
    init(_ spelling: some StringProtocol, stars: Bool = true) throws(PatternSyntaxError) {
        let bytes = Array(spelling.utf8)
        var parts: [Part] = []
        var textStart = 0
        var index = 0
        func flushText(upTo end: Int) {
            if textStart < end { parts.append(.text(textStart..<end)) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if stars && byte == UInt8(ascii: "*") {
                flushText(upTo: index)
                // Consecutive stars are one star: they end one segment only.
                if index == 0 || bytes[index - 1] != UInt8(ascii: "*") {
                    parts.append(.star)
                }
                textStart = index + 1
            } else if byte == UInt8(ascii: "{") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw .unclosedBrace
                }
                flushText(upTo: index)
                let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                parts.append(.placeholder(try Placeholder(name: name)))
                index = close
                textStart = close + 1
            } else if byte == UInt8(ascii: "}") {
                throw .strayClosingBrace
            }
            index += 1
        }
        flushText(upTo: bytes.count)
        if case .text(let first)? = parts.first {
            prefixLength = first.count
        } else {
            prefixLength = 0
        }
        self.bytes = bytes
        self.parts = parts
        self.lastSegmentStart = (parts.lastIndex(of: .star) ?? -1) + 1
    }

    /// Whether `text` matches; `values` gives each placeholder's value, or `nil` when it has
    /// none (then nothing matches). With `prefixMatched`, `text` is known to start with the
    /// pattern's first ``prefixLength`` bytes (the index compared them), so they are not
    /// compared again.
    ///
    /// The first segment is matched at the start, the last at the end (one segment alone: the
    /// whole text), and each segment between at its leftmost place after the one before. A
    /// later place would leave less text for the segments after it, so the leftmost never loses
    /// a match; the walk takes at most `text × pattern` steps.
    func matches<Text: ByteText & ~Escapable>(
        _ text: Text, values: some PlaceholderValues, prefixMatched: Bool = false
    ) -> Bool {
        var first = 0..<segmentEnd(from: 0)
        var start = 0
        if prefixMatched && prefixLength > 0 {
            first = first.dropFirst()
            start = prefixLength
        }
        guard var position = match(first, text, at: start, values) else { return false }
        if lastSegmentStart == 0 { return position == text.count }
        let last = lastSegmentStart..<parts.count
        guard let lastLength = length(last, values),
            lastLength <= text.count - position,
            match(last, text, at: text.count - lastLength, values) != nil
        else { return false }
        let limit = text.count - lastLength
        var segmentStart = first.upperBound + 1
        while segmentStart < lastSegmentStart {
            let segment = segmentStart..<segmentEnd(from: segmentStart)
            segmentStart = segment.upperBound + 1
            guard let length = length(segment, values) else { return false }
            var start = position
            while true {
                if start + length > limit { return false }
                if match(segment, text, at: start, values) != nil { break }
                start += 1
            }
            position = start + length
        }
        return position <= limit
    }

    /// Where the segment that starts at `start` in ``parts`` ends: the next star, or the end.
    private func segmentEnd(from start: Int) -> Int {
        var end = start
        while end < parts.count {
            if case .star = parts[end] { break }
            end += 1
        }
        return end
    }

    /// Where the parts `segment` end when they are matched in `text` from `start`, or `nil`
    /// when they do not match there.
    private func match<Text: ByteText & ~Escapable>(
        _ segment: Range<Int>, _ text: Text, at start: Int, _ values: some PlaceholderValues
    ) -> Int? {
        var position = start
        for index in segment {
            switch parts[index] {
            case .text(let run):
                guard position + run.count <= text.count else { return nil }
                for byte in bytes[run] {
                    if text[position] != byte { return nil }
                    position += 1
                }
            case .placeholder(let placeholder):
                guard let value = values.value(of: placeholder),
                    let end = Self.match(value, text, at: position)
                else { return nil }
                position = end
            case .star:
                preconditionFailure("a segment holds no star")
            }
        }
        return position
    }

    /// Where `value` ends when it is matched in `text` from `start`, or `nil` when it does not
    /// match there. The value's bytes are read through its `Span` where the platform has it.
    private static func match<Text: ByteText & ~Escapable>(_ value: String, _ text: Text, at start: Int)
        -> Int?
    {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return match(bytes: value.utf8.span, text, at: start)
        } else {
            return match(bytes: Array(value.utf8), text, at: start)
        }
    }

    /// Where `bytes` end when they are matched in `text` from `start`, or `nil`.
    private static func match<Bytes: ByteText & ~Escapable, Text: ByteText & ~Escapable>(
        bytes: Bytes, _ text: Text, at start: Int
    ) -> Int? {
        guard bytes.count <= text.count - start else { return nil }
        for index in 0..<bytes.count where text[start + index] != bytes[index] {
            return nil
        }
        return start + bytes.count
    }

    /// The number of bytes the parts `segment` match, or `nil` when a placeholder has no value.
    private func length(_ segment: Range<Int>, _ values: some PlaceholderValues) -> Int? {
        var length = 0
        for index in segment {
            switch parts[index] {
            case .text(let run): length += run.count
            case .placeholder(let placeholder):
                guard let value = values.value(of: placeholder) else { return nil }
                length += value.utf8.count
            case .star:
                preconditionFailure("a segment holds no star")
            }
        }
        return length
    }
}

/// Where placeholders take their values from: a request, or ``NoPlaceholderValues``.
///
/// A protocol rather than a closure, so that a decision hands its request to the matcher
/// without copying it into a closure's context.
protocol PlaceholderValues {
    /// The value of `placeholder`, or `nil` when it has none (then a pattern holding it does not
    /// match).
    func value(of placeholder: Placeholder) -> String?
}

extension AccessRequest: PlaceholderValues {
    /// ``Placeholder/value(in:)``.
    func value(of placeholder: Placeholder) -> String? {
        placeholder.value(in: self)
    }
}

/// No values: every placeholder is without one.
struct NoPlaceholderValues: PlaceholderValues {
    func value(of placeholder: Placeholder) -> String? { nil }
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

    /// The placeholder's value in `request`, in NFC, or `nil` when it has none a rule may use:
    /// missing, empty, `.` or `..`, or holding `/` or a control character. A usable value is one
    /// whole path component that names a thing, so substituted into `tenants/{tenant}/*` it
    /// cannot reach another tenant's folder or, under `ResourceIdentity.text`, a parent folder.
    func value(in request: AccessRequest) -> String? {
        let value: String?
        switch self {
        case .subject: value = request.subject
        case .attribute(let name): value = request.attributes[name]
        }
        guard let value, !value.isEmpty, value != ".", value != ".." else { return nil }
        // One pass over the bytes settles an ASCII value, the common case.
        let scan: ValueScan
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            scan = ValueScan(value.utf8.span)
        } else {
            scan = ValueScan(Array(value.utf8))
        }
        guard scan.isUsable else { return nil }
        if scan.isASCII { return value }
        guard !value.unicodeScalars.contains(where: ResourceIdentity.isControl) else { return nil }
        return ResourceIdentity.normalized(value)
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

/// The first pass over a placeholder value's bytes: whether it may stand in a path component as
/// far as ASCII goes (no `/`, no C0 control character, no DEL), and whether it is all ASCII (then
/// nothing else needs checking).
private struct ValueScan {
    private(set) var isUsable = true
    private(set) var isASCII = true

    init<Bytes: ByteText & ~Escapable>(_ bytes: Bytes) {
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte < 0x20 || byte == 0x7F {
                isUsable = false
                return
            }
            if byte >= 0x80 { isASCII = false }
        }
    }
}
