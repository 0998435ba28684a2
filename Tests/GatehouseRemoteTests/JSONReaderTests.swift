import Foundation
import Testing

@testable import GatehouseCore
@testable import GatehouseRemote

/// The one JSON reader, which configurations and decision services' answers share: a key
/// written twice is refused with the path of its object, nesting is bounded, and a malformed
/// answer's message says what was wrong.
@Suite("The JSON reader")
struct JSONReaderTests {
    /// Reads `text` as an answer, expecting a refusal.
    func refusal(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONReader<AnswerJSON>.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func aKeyWrittenTwiceIsRefusedWithThePathOfItsObjectAndItsPlace() throws {
        let error = try #require(refusal(#"{"a": [{"x": 1}, {"y": 1,"y": 2}]}"#))
        #expect(error.duplicate?.key == "y")
        #expect(error.duplicate?.objectPath == "a[1]")
        #expect((error.line, error.column) == (1, 26))
        #expect(error.message == #"duplicate key "y""#)
    }

    @Test func nestingUpToTheLimitIsReadAndOneLevelMoreIsRefused() throws {
        let limit = JSONReader<AnswerJSON>.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(refusal(deepest) == nil)
        let error = try #require(refusal("[" + deepest + "]"))
        #expect(error.message == "nested deeper than \(limit) levels")
        #expect(error.column == limit + 1)
    }

    @Test func aMalformedAnswerSaysWhatWasWrong() {
        #expect {
            try AnswerJSON.parse(Data(#"{"result": tru}"#.utf8))
        } throws: { error in
            (error as? AnswerShapeError)?.message
                == #"the body is not JSON ({"result": tru}): unexpected 't', expected a value"#
        }
    }

    @Test func anAnswerNumberKeepsItsLiteralText() throws {
        #expect(try AnswerJSON.parse(Data(#"{"n": 1.50}"#.utf8)).members?["n"] == .number("1.50"))
    }
}
