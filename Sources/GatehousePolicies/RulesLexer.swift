import Foundation
import GatehouseCore

/// One line of a rules file that is not blank: its 1-based number and its fields.
struct RulesLine {
    var number: Int
    var fields: [String]
}

/// Makes the bytes of a rules file into lines of fields: every line checked (UTF-8, no character
/// of ``PatternCharacters``), in NFC, and split at spaces and tabs.
enum RulesLexer {
    /// Calls `body` with each good line that has a field (a comment's one field is `#`); returns the
    /// problem of each bad line, and throws a ``RulesFileError`` for a UTF-16 or UTF-32 file.
    static func forEachLine(
        of bytes: [UInt8], fileName: String, _ body: (RulesLine) -> Void
    ) throws -> [RulesFileError.Issue] {
        if let encoding = WideEncoding.name(of: bytes) {
            throw RulesFileError(
                file: fileName, kind: .notUTF8, message: "is \(encoding), not UTF-8; save the file as UTF-8")
        }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var problems: [RulesFileError.Issue] = []
        var line = RulesLine(number: 0, fields: [])
        var start = 0
        while start < text.count {
            line.number += 1
            let end = text[start...].firstIndex(of: newline) ?? text.count
            let whole = text[start..<end]
            start = end + 1
            // Printable ASCII and tabs, most of any rules file, need no closer look; nor does a
            // carriage return that ends the line (CRLF files).
            let checked = whole.last == 0x0D ? whole.dropLast() : whole
            var isASCII = true
            if checked.contains(where: { $0 &- 0x20 >= 0x5F && $0 != 0x09 }) {
                if let problem = checkLine(checked, number: line.number) {
                    problems.append(problem)
                    continue
                }
                isASCII = !checked.contains { $0 >= 0x80 }
            }
            split(whole, normalizing: !isASCII, into: &line.fields)
            if !line.fields.isEmpty { body(line) }
        }
        return problems
    }

    private static let newline = UInt8(ascii: "\n")

    /// Sets `fields` to those of `line`, split at spaces, tabs and a carriage return (which can
    /// only be left at the end), each in NFC when `normalizing` (no blank composes with what
    /// follows it); a comment has one, `#`.
    private static func split(_ line: ArraySlice<UInt8>, normalizing: Bool, into fields: inout [String]) {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        fields.removeAll(keepingCapacity: true)
        var index = line.startIndex
        while let start = line[index...].firstIndex(where: { !isBlank($0) }) {
            guard !fields.isEmpty || line[start] != UInt8(ascii: "#") else {
                fields.append("#")
                return
            }
            index = line[start...].firstIndex(where: isBlank) ?? line.endIndex
            let field = String(decoding: line[start..<index], as: UTF8.self)
            fields.append(normalizing ? ResourceIdentity.normalized(field) : field)
        }
    }

    /// The first problem of one line, without its newline or a carriage return ending it.
    private static func checkLine(_ line: ArraySlice<UInt8>, number: Int) -> RulesFileError.Issue? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.utf8.elementsEqual(line) else {
            return RulesFileError.Issue(
                line: number, kind: .notUTF8, message: "not valid UTF-8; save the file as UTF-8")
        }
        // A tab separates fields.
        guard
            let (column, problem) = PatternCharacters.firstProblem(
                in: text[...], { $0 == "\t" ? nil : PatternCharacters.problem(with: $0) })
        else { return nil }
        return RulesFileError.Issue(
            line: number, kind: .malformed, message: "column \(column) holds \(problem)")
    }
}
