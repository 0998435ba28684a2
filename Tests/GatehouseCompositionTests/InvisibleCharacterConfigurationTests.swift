import Foundation
import GatehouseComposition
import Testing

/// Finding 8 of the third security round, for configurations: a string or key holding a character
/// that renders as nothing reads as another one (`"mallory<U+3164>"` reads as `"mallory"`), so
/// every string and key of a configuration is checked, and one holding an invisible character is
/// an error at its path naming the code point.
@Suite("Configurations: invisible characters")
struct InvisibleCharacterConfigurationTests {
    @Test func anInvisibleCharacterInAnAllowListSubjectIsAnErrorAtItsPath() {
        let json = service(gatekeepers: #"[{ "type": "allowList", "subjects": ["alice", "mallory\u3164"] }]"#)
        #expect(
            issues(json) == [
                "services.s.gatekeepers[0].subjects[1]: column 8 holds U+3164 (HANGUL FILLER), an invisible "
                    + "character; remove it"
            ])
    }

    @Test func anInvisibleCharacterWrittenRawInARulesPathIsAnErrorAtItsPath() {
        let json = service(gatekeepers: "[{ \"type\": \"file\", \"path\": \"docs\u{200D}.rules\" }]")
        #expect(
            issues(json) == [
                "services.s.gatekeepers[0].path: column 5 holds U+200D (ZERO WIDTH JOINER), an invisible "
                    + "character; remove it"
            ])
    }

    @Test func anInvisibleCharacterInAServiceNameIsAnErrorAtItsKey() {
        let json = #"""
            { "services": { "docs\u2061": { "loader": { "type": "memory", "resources": { "a": "A" } },
              "gatekeepers": [ { "type": "alwaysAllow" } ] } } }
            """#
        let found = issues(json)
        #expect(found.count == 1)
        #expect(
            found.first?.hasSuffix(
                ": the key, column 5, holds U+2061 (FUNCTION APPLICATION), an invisible character; remove it")
                == true)
    }

    @Test func aStringWithoutInvisibleCharactersIsAccepted() {
        let json = service(gatekeepers: #"[{ "type": "allowList", "subjects": ["José", "渡辺"] }]"#)
        #expect(issues(json) == [])
    }

    @Test func aMemoryLoadersContentIsTextNotANameAndMayHoldAnEmojiSequence() {
        let json = #"""
            { "services": { "s": { "loader": { "type": "memory", "resources": { "a": "\u2764\uFE0F" } },
              "gatekeepers": [ { "type": "alwaysAllow" } ] } } }
            """#
        #expect(issues(json) == [])
    }
}
