/// The package's one JSON string writer: `"` and `\` escaped, line breaks and tabs as `\n`, `\r`,
/// `\t`, and every other scalar unsafe to write raw as `\uXXXX` (lowercase hex), so that a string
/// can neither end a line of JSON Lines nor drive a terminal, yet reads the same to any JSON
/// reader. The decision log and the command's `--json` write through it.
package enum JSONString {
    private static let hex = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string, quotes included.
    package static func write(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes += #"\""#.utf8
            case "\\": bytes += #"\\"#.utf8
            case "\n": bytes += #"\n"#.utf8
            case "\r": bytes += #"\r"#.utf8
            case "\t": bytes += #"\t"#.utf8
            case _ where isUnsafeToWriteRaw(scalar):
                bytes += #"\u"#.utf8
                for shift in [12, 8, 4, 0] { bytes.append(hex[Int(scalar.value >> UInt32(shift)) & 0x0F]) }
            default: bytes += scalar.utf8
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string, quotes included.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        write(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The C0 and C1 controls, DEL, U+2028, U+2029 and the bidirectional controls (all in the BMP,
    /// so four hex digits suffice): what could end a line, drive a terminal or reorder the text
    /// around it.
    package static func isUnsafeToWriteRaw(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029 || scalar.properties.isBidiControl
    }
}
