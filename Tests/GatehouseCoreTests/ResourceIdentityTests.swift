import GatehouseCore
import Testing

@Suite("ResourceIdentity")
struct ResourceIdentityTests {
    @Test(arguments: [
        "avatars/alice.png", "a", "Keys/master", "café/plan", "\u{00C5}ngström", "\u{AC01}",
        "tenants/acme/plan.txt", "..a/b..", "a/.hidden", "a/...", "ﬁle", "Ｋeys",
    ])
    func acceptsRelativePathsInNFC(_ resource: String) {
        #expect(ResourceIdentity.path.violation(in: resource) == nil)
    }

    @Test func refusesKelvinSignOhmSignAndDecomposedSpellings() {
        let cases: [(String, String)] = [
            ("\u{212A}eys/master", "Keys/master"),  // KELVIN SIGN -> K
            ("\u{2126}/x", "\u{03A9}/x"),  // OHM SIGN -> GREEK CAPITAL OMEGA
            ("A\u{030A}ngstrom", "\u{00C5}ngstrom"),  // A + combining ring -> Å
            ("docs/cafe\u{0301}/plan", "docs/café/plan"),
            ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),  // Hangul jamo -> syllable
        ]
        for (resource, nfc) in cases {
            #expect(ResourceIdentity.path.violation(in: resource) == .notNFC(normalized: nfc))
            #expect(ResourceIdentity.text.violation(in: resource) == .notNFC(normalized: nfc))
        }
    }

    @Test func refusesEveryControlCharacterWithItsPosition() {
        let controls =
            (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + [Unicode.Scalar(UInt8(0x7F))]
            + (0x80...0x9F).map { Unicode.Scalar(UInt8($0)) }
        for control in controls {
            var resource = "ab"
            resource.unicodeScalars.append(control)
            resource += "é"
            #expect(ResourceIdentity.path.violation(in: resource) == .controlCharacter(control, offset: 2))
            #expect(ResourceIdentity.text.violation(in: resource) == .controlCharacter(control, offset: 2))
        }
    }

    @Test func refusesPathsThatAreEmptyAbsoluteOrHaveEmptyDotOrDotDotComponents() {
        let cases: [(String, ResourceIdentity.Violation)] = [
            ("", .empty),
            ("/etc/passwd", .leadingSlash),
            ("/", .leadingSlash),
            ("a//b", .emptyComponent),
            ("a/", .emptyComponent),
            (".", .dotComponent),
            ("a/./b", .dotComponent),
            ("a/.", .dotComponent),
            ("..", .dotDotComponent),
            ("tenants/acme/../globex/plan.txt", .dotDotComponent),
            ("tenants/acme/./../globex/plan.txt", .dotComponent),
            ("a/..", .dotDotComponent),
        ]
        for (resource, violation) in cases {
            #expect(ResourceIdentity.path.violation(in: resource) == violation, "\(resource)")
        }
    }

    /// A `/` followed by a combining mark is one `Character` with it, but a loader still sees
    /// the `/`: the path rules read bytes (the identity fuzz target found `"/\u{31E}^"` passing).
    @Test func aSlashFollowedByACombiningMarkStillBreaksThePathRules() {
        let cases: [(String, ResourceIdentity.Violation)] = [
            ("/\u{31E}etc/passwd", .leadingSlash),
            ("a//\u{301}b", .emptyComponent),
        ]
        for (resource, violation) in cases {
            #expect(
                ResourceIdentity.path.violation(in: resource) == violation, "\(resource.debugDescription)")
        }
    }

    @Test func textIdentityAcceptsWhatIsNotAPath() {
        for resource in ["", "/abs", "https://example.com/a//b", "a/../b"] {
            #expect(ResourceIdentity.text.violation(in: resource) == nil)
        }
    }

    @Test func violationsReadAsSentences() {
        #expect(
            ResourceIdentity.Violation.notNFC(normalized: "Keys/master").description
                == "is not in Unicode NFC (as NFC it is \"Keys/master\"); a key is spelled in NFC so "
                + "that gates and loaders agree on what it names")
        #expect(
            ResourceIdentity.Violation.controlCharacter("\n", offset: 3).description
                == "holds the control character U+000A at position 3")
        #expect(
            ResourceIdentity.Violation.dotDotComponent.description
                == "has a \"..\" path component, which would name a resource outside its folder")
    }
}
