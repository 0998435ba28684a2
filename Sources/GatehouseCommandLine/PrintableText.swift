import GatehouseCore

/// `text` with unsafe scalars as Swift escapes (`\n`, `\u{1b}`) and `\` doubled: an echoed key or
/// reason can never forge a line such as `allowed: ...`.
func printable(_ text: some StringProtocol) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case "\0": result += "\\0"
        case _ where scalar.isUnsafeToPrint: result += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}

extension Unicode.Scalar {
    /// Whether printed raw it could end a line, drive a terminal or reorder the text around it.
    var isUnsafeToPrint: Bool { JSONString.isUnsafeToWriteRaw(self) }
}
