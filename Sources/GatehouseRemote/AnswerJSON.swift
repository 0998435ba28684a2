import Foundation

/// A decision service's answer, parsed as plain JSON values so that its shape can be checked
/// strictly: a boolean is only `true` or `false` (never the number 1), a string only a string.
/// ``AnswerReader`` reads it, refusing a key written twice in one object.
enum AnswerJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnswerJSON])
    case object([String: AnswerJSON])

    /// Parses a whole body.
    static func parse(_ body: Data) throws -> AnswerJSON {
        guard !body.isEmpty else { throw AnswerShapeError("the body is empty; expected a JSON object") }
        return try AnswerReader.read(Array(body))
    }

    /// The members of an object, or `nil` for any other value.
    var members: [String: AnswerJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// What this value is, for messages: `a string`, `an object`, `the number 1`.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .number(let number):
            "the number \(number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number))"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A body that is JSON, but not of the shape the protocol defines.
struct AnswerShapeError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Text from a decision service made safe to show: at most `limit` characters, control and
/// format characters escaped, so that a hostile service cannot forge a log or output line.
enum Excerpt {
    /// The start of a body, for an error message.
    static func of(_ body: Data, limit: Int = 120) -> String {
        text(String(decoding: body.prefix(limit * 4), as: UTF8.self), limit: limit)
    }

    /// A reason the service gave, for a denial.
    static func reason(_ text: String) -> String {
        Self.text(text, limit: 500)
    }

    static func text(_ text: String, limit: Int) -> String {
        var shown = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count >= limit {
                shown += "…"
                break
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
