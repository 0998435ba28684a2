import Foundation
import GatehouseCore

/// A decision service's answer as plain JSON, so its shape is checked strictly (a boolean is never 1).
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

    /// An answer with a key written twice is no decision.
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

/// Text from a decision service, cut and with controls escaped, so it cannot forge a log line.
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
