import Foundation
import GatehouseCore

/// One line of a rules file that is not blank: its 1-based number and where its fields are.
struct RulesLine {
    var number: Int
    /// Ranges, not slices: a slice would hold the text, one reference count more per field.
    var fields: [Range<Int>]
}

/// The bytes of a rules file made into lines of fields: every line checked (UTF-8, no character
/// of ``PatternCharacters``), the text in NFC, and each line split at spaces and tabs.
struct RulesLexer {
    private let text: [UInt8]
    let lineCount: Int
    /// The problem of each bad line; ``forEachLine(_:)`` skips these lines.
    let problems: [RulesFileError.Problem]

    /// Checks and normalizes `bytes`; throws a ``RulesFileError`` for a UTF-16 or UTF-32 file.
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

    /// Calls `body` with each line that has a field, and the text; a comment's one field is `#`.
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
