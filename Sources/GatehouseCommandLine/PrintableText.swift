/// `text` made safe to print as part of one line of the command's human-readable output:
/// every character that could end the line, move the cursor, drive the terminal or reorder what
/// is shown is written as a Swift-style escape, so an echoed key, subject, reason or path can
/// never forge a line such as `allowed: ...`.
///
/// Escaped (see ``Unicode/Scalar/isUnsafeToPrint``): the C0 controls as `\n`, `\r`, `\t`, `\0`
/// or `\u{1b}`, DEL and the C1 controls, the line and paragraph separators and the
/// bidirectional controls, all as `\u{...}`. A backslash is doubled, so the escaped form reads
/// back unambiguously: `a\nb` was a newline, `a\\nb` a backslash and an `n`. Everything else,
/// including letters of any script, is printed as it is.
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
    /// around it: a C0 control (U+0000–U+001F), DEL or a C1 control (U+007F–U+009F), the line
    /// or paragraph separator (U+2028, U+2029), or a bidirectional control (U+061C, U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069). ``printable(_:)`` and ``JSONText`` escape these.
    var isUnsafeToPrint: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || properties.isBidiControl
    }
}
