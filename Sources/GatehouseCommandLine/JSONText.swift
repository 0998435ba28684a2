import GatehouseCore

/// JSON with members in a fixed order (one without a value left out); strings are written by
/// ``JSONString``, a scalar unsafe to print raw as `\uXXXX`: the same string to any JSON reader,
/// harmless in a terminal.
indirect enum JSONText {
    case null
    case bool(Bool)
    case number(Int)
    case string(String)
    case array([JSONText])
    case object([(String, JSONText?)])

    var text: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): String(number)
        case .string(let string): Self.quote(string)
        case .array(let values): "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.compactMap { name, value in value.map { Self.quote(name) + ":" + $0.text } }
                .joined(separator: ",") + "}"
        }
    }

    /// `string` as a JSON string, with the package's one writer (``JSONString``).
    static func quote(_ string: String) -> String { JSONString.quoted(string) }
}
