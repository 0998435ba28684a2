import Foundation

/// The bytes of a rules file made ready to parse: a leading byte-order mark dropped, every line
/// checked to be UTF-8 without a character that would make a rule read as something other than
/// what it matches (see ``PatternCharacters``), and the text normalized to Unicode NFC.
enum RulesText {
    /// The UTF-8 byte-order mark, accepted (and dropped) at the start of a file.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` without a leading byte-order mark, in NFC.
    ///
    /// - Throws: ``RulesFileError`` naming the first line that is not UTF-8 or holds a
    ///   forbidden character, with its column and what to write instead.
    static func prepare(_ bytes: [UInt8], fileName: String) throws -> [UInt8] {
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
        if isASCII { return text }
        return Array(String(decoding: text, as: UTF8.self).precomposedStringWithCanonicalMapping.utf8)
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
