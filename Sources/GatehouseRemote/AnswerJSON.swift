import Foundation

/// A decision service's answer, parsed as plain JSON values so that its shape can be checked
/// strictly: a boolean is only `true` or `false` (never the number 1), a string only a string.
enum AnswerJSON: Sendable, Hashable, JSONBuildable {
    case null
    case bool(Bool)
    /// A number, as its literal text.
    case number(String)
    case string(String)
    case array([AnswerJSON])
    case object([String: AnswerJSON])

    /// Builds an object; ``JSONReader`` refuses a key written twice, so every key is one member.
    static func object(members: [(key: String, value: AnswerJSON)]) -> AnswerJSON {
        .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
    }

    /// Parses a whole body, refusing a key written twice in one object: an answer with a
    /// duplicate key is no decision, and the gate fails.
    static func parse(_ body: Data) throws -> AnswerJSON {
        guard !body.isEmpty else { throw AnswerShapeError("the body is empty; expected a JSON object") }
        do {
            return try JSONReader.parse(Array(body))
        } catch {
            guard let (key, path) = error.duplicate else {
                throw AnswerShapeError(
                    "the body is not JSON (\(Excerpt.of(body))): \(Excerpt.text(error.message, limit: 200))")
            }
            let place = path.isEmpty ? "the answer" : "\"\(Excerpt.text(path, limit: 120))\""
            throw AnswerShapeError(
                "the key \"\(Excerpt.text(key, limit: 120))\" appears more than once in \(place); an answer with a duplicate key is ambiguous"
            )
        }
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
        case .number(let text): "the number \(Excerpt.text(text, limit: 40))"
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
