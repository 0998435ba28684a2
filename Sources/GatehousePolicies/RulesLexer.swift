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
        if let encoding = WideEncoding.name(of: bytes) {
            throw RulesFileError(
                file: fileName, kind: .notUTF8, message: "is \(encoding), not UTF-8; save the file as UTF-8")
        }
        let text = bytes.starts(with: Self.byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
        var problems: [RulesFileError.Problem] = []
        var isASCII = true
        var lineCount = 0
        var start = 0
        while start <= text.count {
            lineCount += 1
            let end = text[start...].firstIndex(of: Self.newline) ?? text.count
            let line = text[start..<end]
            start = end + 1
            // Printable ASCII and tabs, most of any rules file, need no closer look; nor does a
            // carriage return that ends the line (CRLF files).
            let body = line.last == 0x0D ? line.dropLast() : line
            guard body.contains(where: { $0 &- 0x20 >= 0x5F && $0 != 0x09 }) else { continue }
            isASCII = isASCII && !body.contains { $0 >= 0x80 }
            if let problem = Self.checkLine(body, number: lineCount) {
                problems.append(problem)
            }
        }
        // NFC leaves newlines alone, so the line count holds for the normalized text.
        self.text =
            isASCII ? text : Array(ResourceIdentity.normalized(String(decoding: text, as: UTF8.self)).utf8)
        self.lineCount = lineCount
        self.problems = problems
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

    /// The first problem of one line, without its newline or a carriage return ending it.
    private static func checkLine(_ line: ArraySlice<UInt8>, number: Int) -> RulesFileError.Problem? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.utf8.elementsEqual(line) else {
            return RulesFileError.Problem(
                line: number, kind: .notUTF8, message: "not valid UTF-8; save the file as UTF-8")
        }
        // A tab separates fields.
        guard
            let (column, problem) = PatternCharacters.firstProblem(
                in: text[...], { $0 == "\t" ? nil : PatternCharacters.problem(with: $0) })
        else { return nil }
        return RulesFileError.Problem(
            line: number, kind: .malformed, message: "column \(column) holds \(problem)")
    }
}
