import Foundation
import GatehouseCore

/// One line of a rules file that is not blank: its 1-based number and where its fields are.
struct RulesLine {
    /// The line's number in the file.
    var number: Int
    /// Where each field's UTF-8 bytes are in the text, split at spaces and tabs (never empty).
    /// Ranges, not slices: a slice would hold the text, one reference count more per field.
    var fields: [Range<Int>]
}

/// The bytes of a rules file made into lines of fields: a leading byte-order mark dropped, every
/// line checked to be UTF-8 without a character that would make a rule read as something other
/// than what it matches (see ``PatternCharacters``), the text normalized to Unicode NFC, and
/// each line split at spaces and tabs (a `\\r` before the newline is dropped, so CRLF files work).
struct RulesLexer {
    /// The checked text, in NFC.
    private let text: [UInt8]
    /// How many lines the text has (the last one may lack its newline).
    let lineCount: Int
    /// Each line that is not UTF-8 or holds a forbidden character, with its column and what to
    /// write instead; ``forEachLine(_:)`` skips these lines.
    let problems: [RulesFileError.Problem]

    /// Checks and normalizes `bytes`, noting every bad line in ``problems``.
    ///
    /// - Throws: ``RulesFileError`` when the whole file is in a wide encoding (UTF-16 or
    ///   UTF-32), where no line can be read.
    init(_ bytes: [UInt8], fileName: String) throws {
        (text, lineCount, problems) = try Self.prepare(bytes, fileName: fileName)
    }

    /// Calls `body` with each line that holds at least one field, in order, and the text its
    /// fields are ranges of. A comment line has the single field `#`.
    func forEachLine(_ body: (RulesLine, [UInt8]) -> Void) {
        let badLines = Set(problems.compactMap(\.line))
        var line = RulesLine(number: 0, fields: [])
        var index = 0
        while index < text.count {
            line.number += 1
            line.fields.removeAll(keepingCapacity: true)
            while index < text.count && text[index] != Self.newline {
                if Self.isBlank(text[index]) {
                    index += 1
                } else if line.fields.isEmpty && text[index] == Self.hash {
                    line.fields.append(index..<(index + 1))
                    while index < text.count && text[index] != Self.newline { index += 1 }
                } else {
                    let start = index
                    while index < text.count && text[index] != Self.newline && !Self.isBlank(text[index]) {
                        index += 1
                    }
                    line.fields.append(start..<index)
                }
            }
            index += 1
            if !line.fields.isEmpty && !badLines.contains(line.number) {
                body(line, text)
            }
        }
    }

    private static let newline = UInt8(ascii: "\n")
    private static let hash = UInt8(ascii: "#")

    /// Space and tab separate fields; a carriage return can only be left at a line's end.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    /// The UTF-8 byte-order mark, accepted (and dropped) at the start of a file.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` without a leading byte-order mark, in NFC, how many lines it has, and the
    /// problem of each bad line.
    private static func prepare(_ bytes: [UInt8], fileName: String) throws
        -> (text: [UInt8], lineCount: Int, problems: [RulesFileError.Problem])
    {
        if let encoding = WideEncoding.name(of: bytes) {
            throw RulesFileError(
                file: fileName, kind: .notUTF8, message: "is \(encoding), not UTF-8; save the file as UTF-8")
        }
        let text = bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
        var problems: [RulesFileError.Problem] = []
        var isASCII = true
        var lineNumber = 1
        var lineStart = 0
        var lineIsASCII = true
        for index in text.indices {
            let byte = text[index]
            // Printable ASCII, most of any rules file, needs nothing more.
            if byte &- 0x20 < 0x5F { continue }
            if byte == 0x0A {
                if !lineIsASCII && problems.last?.line != lineNumber,
                    let problem = checkLine(text[lineStart..<index], number: lineNumber)
                {
                    problems.append(problem)
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
                if byte != 0x09 && !(byte == 0x0D && endsLine) && problems.last?.line != lineNumber,
                    let problem = checkLine(text[lineStart...], number: lineNumber)
                {
                    // Located and named by the scalar-level check.
                    problems.append(problem)
                }
            }
        }
        if !lineIsASCII && problems.last?.line != lineNumber,
            let problem = checkLine(text[lineStart...], number: lineNumber)
        {
            problems.append(problem)
        }
        if isASCII { return (text, lineNumber, problems) }
        // NFC leaves newlines alone, so the line count holds for the normalized text.
        return (
            Array(ResourceIdentity.normalized(String(decoding: text, as: UTF8.self)).utf8),
            lineNumber, problems
        )
    }

    /// The first problem of one line (up to its newline, or to the end of the text), if any.
    private static func checkLine(_ bytes: ArraySlice<UInt8>, number: Int) -> RulesFileError.Problem? {
        let line = bytes.prefix { $0 != 0x0A }
        let text = String(decoding: line, as: UTF8.self)
        guard text.utf8.elementsEqual(line) else {
            return RulesFileError.Problem(
                line: number, kind: .notUTF8, message: "not valid UTF-8; save the file as UTF-8")
        }
        let last = text.unicodeScalars.count - 1
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar == "\t" || (scalar == "\r" && offset == last) { continue }
            if let problem = PatternCharacters.problem(with: scalar) {
                return RulesFileError.Problem(
                    line: number, kind: .malformed, message: "column \(offset + 1) holds \(problem)")
            }
        }
        return nil
    }
}
