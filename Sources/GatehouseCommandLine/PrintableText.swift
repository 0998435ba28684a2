/// `text` made safe to print as part of one line of the command's output: every scalar
/// ``Unicode/Scalar/isUnsafeToPrint`` is written as a Swift-style escape (`\n`, `\u{1b}`), so an
/// echoed key, subject, reason or path can never forge a line such as `allowed: ...`. A backslash
/// is doubled, so the escaped form reads back unambiguously.
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
    /// Whether printing this scalar raw could end a line, drive a terminal or reorder the text
    /// around it: a C0 or C1 control, DEL, U+2028, U+2029, or a bidirectional control.
    var isUnsafeToPrint: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || properties.isBidiControl
    }
}
