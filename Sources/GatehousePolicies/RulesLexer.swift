import Foundation

/// One line of a rules file that is not blank: its 1-based number and its fields.
struct RulesLine {
    /// The line's number in the file.
    var number: Int
    /// The fields, split at spaces and tabs (never empty).
    var fields: [Substring]
}

/// The bytes of a rules file made into lines of fields: a leading byte-order mark dropped, every
/// line checked to be UTF-8 without a character that would make a rule read as something other
/// than what it matches (see ``PatternCharacters``), the text normalized to Unicode NFC, and
/// each line split at spaces and tabs (a `\r` before the newline is dropped, so CRLF files work).
enum RulesLexer {
    /// The lines of `bytes` that hold at least one field, in order.
    ///
    /// - Throws: ``RulesFileError`` naming the first line that is not UTF-8 or holds a
    ///   forbidden character, with its column and what to write instead.
    static func lines(_ bytes: [UInt8], fileName: String) throws -> [RulesLine] {
        let text = try prepare(bytes, fileName: fileName)
        var lines: [RulesLine] = []
        var number = 0
        for line in text.utf8.split(separator: newline, omittingEmptySubsequences: false) {
            number += 1
            let fields = line.split(whereSeparator: isBlank).map { Substring($0) }
            if !fields.isEmpty {
                lines.append(RulesLine(number: number, fields: fields))
            }
        }
        return lines
    }

    private static let newline = UInt8(ascii: "\n")

    /// Space and tab separate fields; a carriage return can only be left at a line's end.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    /// The UTF-8 byte-order mark, accepted (and dropped) at the start of a file.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` without a leading byte-order mark, checked, as text in NFC.
    private static func prepare(_ bytes: [UInt8], fileName: String) throws -> String {
        let text = bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
        var isASCII = true
        var lineNumber = 1
        var lineStart = 0
        var lineIsASCII = true
        for index in text.indices {
            let byte = text[index]
            if byte == 0x0A {
                if !lineIsASCII {
                    try checkLine(text[lineStart..<index], number: lineNumber, fileName: fileName)
                }
                lineNumber += 1
                lineStart = index + 1
                lineIsASCII = true
            } else if byte >= 0x80 {
                lineIsASCII = false
                isASCII = false
            } else if byte < 0x20 || byte == 0x7F {
                // Tab separates fields; a carriage return may only end a line (CRLF files).
                let endsLine = index + 1 == text.count || text[index + 1] == 0x0A
                if byte != 0x09 && !(byte == 0x0D && endsLine) {
                    // Located and named by the scalar-level check.
                    try checkLine(text[lineStart...], number: lineNumber, fileName: fileName)
                }
            }
        }
        if !lineIsASCII {
            try checkLine(text[lineStart...], number: lineNumber, fileName: fileName)
        }
        let decoded = String(decoding: text, as: UTF8.self)
        return isASCII ? decoded : decoded.precomposedStringWithCanonicalMapping
    }

    /// Checks one line (up to its newline, or to the end of the text).
    private static func checkLine(_ bytes: ArraySlice<UInt8>, number: Int, fileName: String) throws {
        let line = bytes.prefix { $0 != 0x0A }
        let text = String(decoding: line, as: UTF8.self)
        guard text.utf8.elementsEqual(line) else {
            throw RulesFileError(
                file: fileName, line: number, kind: .notUTF8,
                message: "not valid UTF-8; save the file as UTF-8")
        }
        let last = text.unicodeScalars.count - 1
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar == "\t" || (scalar == "\r" && offset == last) { continue }
            if let problem = PatternCharacters.problem(with: scalar) {
                throw RulesFileError(
                    file: fileName, line: number, kind: .malformed,
                    message: "column \(offset + 1) holds \(problem)")
            }
        }
    }
}
