import Foundation
import Testing

@testable import GatehouseCore

/// The one JSON string writer, used by the decision log and the command's `--json`.
@Suite("JSONString")
struct JSONStringTests {
    @Test func quotesBackslashesAndLineBreaksAreEscaped() {
        #expect(JSONString.quoted("a\"b\\c\nd\re\tf") == #""a\"b\\c\nd\re\tf""#)
    }

    @Test func aScalarUnsafeToWriteRawIsWrittenAsFourHexDigits() {
        #expect(
            JSONString.quoted("\u{1b}[2J\u{7f}\u{85}\u{2028}\u{202e}")
                == #""\u001b[2J\u007f\u0085\u2028\u202e""#)
    }

    @Test func everyOtherScalarIsWrittenAsItIs() {
        #expect(JSONString.quoted("café/ø 🙂 *") == "\"café/ø 🙂 *\"")
    }

    @Test func anyJSONReaderReadsTheSameStringBack() throws {
        let text = "line\nbreak \"quoted\" \\ \u{0}\u{1b}\u{2029}\u{200f} é"
        let decoded = try JSONDecoder().decode(String.self, from: Data(JSONString.quoted(text).utf8))
        #expect(decoded == text)
    }
}
