import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// The attacks on the rules format from the security issue: a rule that reads as one thing and
/// matches another, and a file that is not a whole version.
@Suite("Rules files: strict lexing, NFC, incomplete versions")
struct RulesFileStrictnessTests {
    @Test func aDenyWrittenInNFDMatchesItsNFCRequest() throws {
        let rules = try RulesFile.parse(
            "allow * read *\ndeny mallory read docs/cafe\u{0301}/*\n", fileName: "r")
        #expect(
            rules.decide(subject: "mallory", action: "read", resource: "docs/café/plan")
                == .init(effect: .deny, line: 2))
    }

    @Test func aSubjectWrittenInNFDMatchesItsNFCSubject() throws {
        let rules = try RulesFile.parse("deny Jose\u{0301} read *\nallow * read *\n", fileName: "r")
        #expect(rules.decide(subject: "José", action: "read", resource: "x") == .init(effect: .deny, line: 1))
    }

    @Test func aNULInsideAFieldIsMalformedWithItsColumn() {
        let error = rulesParseError("allow * read *\ndeny * read secret\u{0000}\n")
        #expect(error?.kind == .malformed)
        #expect(
            error?.errorDescription
                == "r.rules:2: column 19 holds U+0000, a control character; remove it")
    }

    @Test(arguments: [0x01, 0x0B, 0x0C, 0x1B, 0x7F, 0x85, 0x9B] as [UInt32])
    func everyOtherControlCharacterIsMalformed(_ value: UInt32) {
        let control = String(Character(Unicode.Scalar(value)!))
        let error = rulesParseError("deny * read a\(control)b\n")
        #expect(error?.kind == .malformed)
        #expect(error?.line == 1)
        #expect(error?.message.hasPrefix("column 14 holds U+") == true)
    }

    @Test func aCarriageReturnOnlyEndsALine() throws {
        #expect(try RulesFile.parse("allow a read x\r\nallow b read y\r", fileName: "r").ruleCount == 2)
        #expect(rulesParseError("deny * read a\rb\n")?.kind == .malformed)
    }

    @Test func aNoBreakSpaceJoiningTwoFieldsIsMalformed() {
        let error = rulesParseError("allow * read *\ndeny mallory\u{00A0}read Keys/*\n")
        #expect(
            error?.errorDescription
                == "r.rules:2: column 13 holds U+00A0 (NO-BREAK SPACE), a Unicode space or invisible "
                + "separator; separate fields with ASCII spaces or tabs, and write no invisible "
                + "characters in a pattern")
    }

    @Test(arguments: [0x1680, 0x2003, 0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000] as [UInt32])
    func everyUnicodeSpaceIsMalformed(_ value: UInt32) {
        let space = String(Character(Unicode.Scalar(value)!))
        #expect(rulesParseError("deny * read a\(space)b\n")?.kind == .malformed)
    }

    @Test(arguments: [0x202E, 0x2066, 0x200F] as [UInt32])
    func aBidirectionalControlIsMalformed(_ value: UInt32) {
        let control = String(Character(Unicode.Scalar(value)!))
        let error = rulesParseError("deny * read \(control)secret\n")
        #expect(error?.message.contains("bidirectional control") == true)
    }

    @Test(arguments: [0xFF0A, 0x2217, 0x204E, 0x2731, 0xFE61] as [UInt32])
    func aLookAlikeOfTheStarIsMalformedWithAHint(_ value: UInt32) {
        let star = String(Character(Unicode.Scalar(value)!))
        let error = rulesParseError("deny * read Keys/\(star)\n")
        #expect(error?.kind == .malformed)
        #expect(error?.message.hasPrefix("column 18 holds U+") == true)
        #expect(
            error?.message.hasSuffix(
                "which looks like \"*\" but matches only itself; write the ASCII \"*\" (U+002A) for a wildcard"
            )
                == true)
    }

    @Test func aLeadingByteOrderMarkIsDropped() throws {
        let rules = try RulesFile.parse(Array("\u{FEFF}allow * read *\n".utf8), fileName: "r")
        #expect(rules.decide(subject: "a", action: "read", resource: "x") == .init(effect: .allow, line: 1))
    }

    @Test func aByteOrderMarkElsewhereIsNamed() {
        let error = rulesParseError("allow * read *\n\u{FEFF}deny * read x\n")
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("column 1 holds U+FEFF (ZERO WIDTH NO-BREAK SPACE)") == true)
    }

    @Test func aZeroByteFileIsIncompleteNotEmptyOfRules() {
        let error = rulesParseError("")
        #expect(error?.kind == .incomplete)
        #expect(
            error?.errorDescription
                == "r.rules: is empty (0 bytes), which is what a file being rewritten in place looks "
                + "like; a file meant to hold no rules says so with a comment line")
    }

    @Test func aFileOfBlankLinesIsIncompleteToo() {
        #expect(rulesParseError("\n  \n\t\n")?.kind == .incomplete)
        #expect(rulesParseError("\n  \n\t\n")?.message.hasPrefix("holds no rule and no comment") == true)
    }

    @Test func aRequiredEndLineMustBeThere() throws {
        #expect(try RulesFile.parse("allow * read *\nend\n", fileName: "r", requireEnd: true).ruleCount == 1)
        #expect(try RulesFile.parse("end", fileName: "r", requireEnd: true).ruleCount == 0)
        #expect(
            try RulesFile.parse("allow a read x\nend\n# trailing comment\n\n", fileName: "r").ruleCount == 1)
        let missing = rulesParseError("allow * read *\n", requireEnd: true)
        #expect(missing?.kind == .incomplete)
        #expect(
            missing?.errorDescription
                == "r.rules: has no end line, which this policy requires: the file may be a version "
                + "still being written; finish it with a line \"end\"")
        // A partly written end line is not an end line.
        #expect(rulesParseError("allow * read *\nen", requireEnd: true)?.kind == .malformed)
    }

    @Test func nothingButCommentsMayFollowTheEndLine() {
        #expect(
            rulesParseError("allow a read x\nend\ndeny a read x\n")?.errorDescription
                == "r.rules:3: a line after the end line (line 2); the end line comes last")
        #expect(
            rulesParseError("end\nend\n")?.errorDescription
                == "r.rules:2: a second end line (the first is line 1); a file has one, last")
    }

    @Test func anEmptyBlockListUnderNotFailsInsteadOfAllowing() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let url = try folder.write("block.rules", Data())
        let proxy = MemoryStore().guarded(by: Not(FilePolicy(url: url)))
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("Keys/master") }
        #expect(error?.kind == .failed)
    }

    @Test func anAllowListPatternInNFDMatchesItsNFCRequest() async throws {
        let list = try AllowList(resources: ["docs/cafe\u{0301}/*"], subjects: ["Jose\u{0301}"])
        #expect(try await list.evaluate(AccessRequest(subject: "José", resource: "docs/café/plan")) == .allow)
    }

    @Test func anAllowListRefusesLookAlikeStarsAndControls() {
        #expect {
            try AllowList(resources: ["Keys/\u{FF0A}"])
        } throws: { error in
            (error as? PolicyConfigurationError)?.message.hasPrefix("resources[0], column 6, holds U+FF0A")
                == true
        }
        #expect(throws: PolicyConfigurationError.self) { try AllowList(subjects: ["a\nb"]) }
    }
}

/// A loader that returns its key.
private struct MemoryStore: ResourceLoading {
    func load(_ key: String) async throws -> String { key }
}
