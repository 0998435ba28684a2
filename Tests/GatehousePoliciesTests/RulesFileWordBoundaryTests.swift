import GatehousePolicies
import Testing

/// The parser finds line ends, field ends and non-ASCII bytes 8 bytes at a time. These tests put
/// each of them at every offset around the word boundaries.
@Suite("RulesFile across word boundaries")
struct RulesFileWordBoundaryTests {
    @Test func blankCommentAndRuleLinesOfEveryLengthKeepTheirLineNumbers() throws {
        var lines: [String] = []
        var expected: [(subject: String, line: Int)] = []
        for length in 0...17 {
            lines.append(String(repeating: " ", count: length))
            lines.append("#" + String(repeating: "c", count: length))
            let subject = "u" + String(repeating: "s", count: length)
            lines.append("allow \(subject) read r\(length)")
            expected.append((subject, lines.count))
        }
        let rules = try RulesFile.parse(lines.joined(separator: "\n"), fileName: "r")
        #expect(rules.ruleCount == 18)
        for (length, (subject, line)) in expected.enumerated() {
            #expect(
                rules.decide(subject: subject, action: "read", resource: "r\(length)")
                    == .init(effect: .allow, line: line))
        }
        #expect(
            throws: RulesFileError(
                file: "r", line: lines.count + 1, kind: .malformed,
                message: "expected 4 fields (effect subject action resource), found 3")
        ) {
            try RulesFile.parse((lines + ["allow too few"]).joined(separator: "\n"), fileName: "r")
        }
    }

    @Test func aByteThatIsNotUTF8IsFoundAtEveryPlaceInItsLine() {
        // Lines of 8 lengths, so that the newline falls at each place of a word.
        for padding in 0..<8 {
            let good = Array(
                ("allow alice read avatars/alice/photo.png" + String(repeating: "x", count: padding)).utf8)
            for position in good.indices {
                var bad = good
                bad[position] = 0xFF
                let bytes = Array("allow bob read x\n".utf8) + bad + Array("\nallow carol read y\n".utf8)
                #expect(
                    throws: RulesFileError(
                        file: "r", line: 2, kind: .notUTF8, message: "not valid UTF-8; save the file as UTF-8"
                    )
                ) {
                    try RulesFile.parse(bytes, fileName: "r")
                }
            }
        }
    }

    @Test func aByteThatIsNotUTF8RightAfterANewlineBelongsToTheNextLine() {
        for length in 0...16 {
            let first = Array(("#" + String(repeating: "c", count: length)).utf8)
            let bytes = first + [0x0A, 0xFF] + Array(" allow a read x\n".utf8)
            #expect(
                throws: RulesFileError(
                    file: "r", line: 2, kind: .notUTF8, message: "not valid UTF-8; save the file as UTF-8")
            ) {
                try RulesFile.parse(bytes, fileName: "r")
            }
        }
    }

    @Test func validUTF8AtEveryPlaceOfAFieldIsAccepted() throws {
        let plain = "abcdefghijklmnopq"
        for position in 0...plain.count {
            let resource = String(plain.prefix(position)) + "é" + plain.dropFirst(position)
            let rules = try RulesFile.parse("# é\nallow * read \(resource)\n", fileName: "r")
            #expect(
                rules.decide(subject: "a", action: "read", resource: resource)
                    == .init(effect: .allow, line: 2))
            #expect(rules.decide(subject: "a", action: "read", resource: plain) == nil)
        }
    }

    @Test func controlBytesAreMalformedAtEveryOffset() throws {
        for control in ["\u{0}", "\u{1}", "\u{8}", "\u{B}", "\u{C}", "\u{E}", "\u{1F}", "\u{7F}"] {
            for offset in 0...16 {
                let subject = String(repeating: "a", count: offset) + control + "b"
                #expect {
                    try RulesFile.parse("allow \(subject) read x\n", fileName: "r")
                } throws: { error in
                    (error as? RulesFileError)?.message.hasPrefix("column \(offset + 7) holds U+") == true
                }
            }
        }
    }

    @Test func everyBlankSeparatesFieldsAtEveryOffset() throws {
        for separator in [" ", "\t", " \t "] {
            for length in 0...17 {
                let subject = "s" + String(repeating: "x", count: length)
                let line = ["allow", subject, "read", "avatars/\(subject)/*"].joined(separator: separator)
                let rules = try RulesFile.parse(line + separator + "\n", fileName: "r")
                #expect(rules.ruleCount == 1)
                #expect(
                    rules.decide(subject: subject, action: "read", resource: "avatars/\(subject)/a")
                        == .init(effect: .allow, line: 1))
            }
        }
    }
}
