import Foundation
import GatehouseCore
import Testing

@testable import GatehousePolicies

/// Finding 8 of the third security round: characters that render as nothing (Hangul fillers,
/// joiners, tags, variation selectors) and stars that are not `*` made a rule read as something
/// other than what it matches. `deny mallory<U+3164> read docs/*` read as a deny of mallory,
/// validated, and denied no one.
@Suite("Rules files and allow-lists: invisible characters and star look-alikes")
struct InvisibleCharacterTests {
    /// Every code point that may be assigned a character other than private use: planes 0–3 and
    /// 14 (planes 4–13 hold none as of Unicode 16; 15 and 16 are private use). Scanning these,
    /// not all 1.1 million, keeps a test of the whole repertoire within a second or two.
    static let assignable = Array(UInt32(0x80)...0x3FFFF) + Array(UInt32(0xE0000)...0xEFFFF)

    static func text(_ value: UInt32) -> String {
        String(Character(Unicode.Scalar(value)!))
    }

    @Test func aDenyOfASubjectFollowedByAHangulFillerIsMalformedInsteadOfDenyingNoOne() {
        let error = rulesParseError("allow * read *\ndeny mallory\u{3164} read docs/*\n")
        #expect(error?.kind == .malformed)
        #expect(
            error?.errorDescription
                == "r.rules:2: column 13 holds U+3164 (HANGUL FILLER), an invisible character; remove it")
    }

    /// Every invisible character the attack found accepted, and the other fillers.
    @Test(
        arguments: [
            0x3164, 0x115F, 0x1160, 0xFFA0, 0x200D, 0x2061, 0xE0001, 0x034F, 0xFE0F, 0x1D159, 0x2800,
            0x00AD, 0x16FE4,
        ] as [UInt32])
    func everyInvisibleCharacterFoundIsMalformedAndNamed(_ value: UInt32) {
        let error = rulesParseError("deny * read a\(Self.text(value))b\n")
        #expect(error?.kind == .malformed)
        #expect(error?.message.hasPrefix("column 14 holds U+") == true)
        #expect(error?.message.hasSuffix("an invisible character; remove it") == true)
    }

    /// Generated from the runtime's Unicode data, not a sample: every default-ignorable code
    /// point and every format character (general category Cf) is refused.
    @Test func everyDefaultIgnorableAndFormatCharacterIsRefused() {
        var checked = 0
        for value in Self.assignable {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            guard properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format else {
                continue
            }
            checked += 1
            #expect(PatternCharacters.problem(with: scalar) != nil, "U+\(String(value, radix: 16))")
        }
        #expect(checked > 4_000)
    }

    @Test func anInvisibleCharacterInACommentIsMalformedToo() {
        #expect(rulesParseError("# a note\u{200D}\nallow * read *\n")?.kind == .malformed)
    }

    /// The star look-alikes the attack found accepted.
    @Test(arguments: [0x273A, 0x2055, 0x1F7B1, 0xA673, 0x0359, 0x20F0, 0x229B, 0x2605] as [UInt32])
    func aStarLookAlikeIsMalformedAndNamed(_ value: UInt32) throws {
        let error = rulesParseError("deny * read Keys/\(Self.text(value))\n")
        #expect(error?.kind == .malformed)
        let name = try #require(Unicode.Scalar(value)?.properties.name)
        #expect(
            error?.message.contains("holds \(String(format: "U+%04X", value)) (\(name))") == true)
        #expect(
            error?.message.hasSuffix(
                "which looks like \"*\" but matches only itself; write the ASCII \"*\" (U+002A) for a wildcard"
            )
                == true)
    }

    /// The final set, as docs/security.md lists it: every scalar the runtime names with the word
    /// ASTERISK, ASTERISKS, ASTERISM, STAR or STARS that is not a letter, and the look-alikes named
    /// otherwise.
    @Test func theStarLookAlikesAreExactlyTheDocumentedSet() {
        var found: [UInt32] = []
        for value in Self.assignable {
            guard let scalar = Unicode.Scalar(value),
                PatternCharacters.problem(with: scalar)?.kind == .starLookAlike
            else { continue }
            found.append(value)
        }
        let documented: [ClosedRange<UInt32>] = [
            0x0359...0x0359, 0x066D...0x066D, 0x2042...0x2042, 0x204E...0x204E, 0x2051...0x2051,
            0x2055...0x2055, 0x20F0...0x20F0, 0x2217...0x2217, 0x225B...0x225B, 0x229B...0x229B,
            0x22C6...0x22C6, 0x235F...0x235F, 0x2363...0x2363, 0x2605...0x2606, 0x262A...0x262A,
            0x269D...0x269D, 0x2721...0x2727, 0x2729...0x274B, 0x29C6...0x29C6,
            0x2A6E...0x2A6E, 0x2B50...0x2B52, 0x2BE8...0x2BEB, 0xA673...0xA673, 0xFE61...0xFE61,
            0xFF0A...0xFF0A, 0x1031F...0x1031F, 0x10AF0...0x10AF0, 0x1F303...0x1F303, 0x1F31F...0x1F320,
            0x1F52F...0x1F52F, 0x1F7AF...0x1F7D4, 0x1F7D9...0x1F7D9, 0x1F929...0x1F929,
        ]
        #expect(found == documented.flatMap { Array($0) })
    }

    @Test func anAllowListRefusesAnInvisibleCharacterInASubject() {
        #expect {
            try AllowList(subjects: ["alice", "mallory\u{3164}"])
        } throws: { error in
            (error as? PolicyConfigurationError)?.message
                == "subjects[1], column 8, holds U+3164 (HANGUL FILLER), an invisible character; remove it"
        }
    }

    @Test func anAllowListRefusesAStarLookAlike() {
        #expect(throws: PolicyConfigurationError.self) { try AllowList(resources: ["docs/\u{273A}"]) }
    }

    @Test func aTextWithoutInvisibleCharactersHasNoInvisibleProblem() {
        #expect(PatternCharacters.firstInvisible(in: "docs/café/*") == nil)
        #expect(
            PatternCharacters.firstInvisible(in: "a\u{200B}b")?.column == 2,
            "the configuration check names every invisible character, separators included")
    }
}
