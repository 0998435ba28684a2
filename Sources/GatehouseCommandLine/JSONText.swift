/// JSON with members in a fixed order (one without a value left out); a scalar unsafe to print
/// raw is written `\uXXXX`: the same string to any JSON reader, harmless in a terminal.
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

    static func quote(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.isUnsafeToPrint:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
