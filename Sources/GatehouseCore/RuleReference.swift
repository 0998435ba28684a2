/// Where a rule is written: `source:line`, in text and in JSON.
public struct RuleReference: Sendable, Hashable, CustomStringConvertible {
    /// The file name, or the name given to rules held in memory.
    public var source: String
    /// The rule's line, from 1.
    public var line: Int

    /// Creates a reference to `line` of `source`.
    public init(source: String, line: Int) {
        self.source = source
        self.line = line
    }

    /// `source:line`, such as `documents.rules:12`.
    public var description: String { "\(source):\(line)" }
}

extension RuleReference: Codable {
    /// Reads `"source:line"`, the line after the last colon.
    ///
    /// - Throws: `DecodingError` when the text does not end in `:` and a positive number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]),
            line > 0
        else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected \"source:line\", found \"\(text)\"")
        }
        self.init(source: String(text[..<colon]), line: line)
    }

    /// Writes `"source:line"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
