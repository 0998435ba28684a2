import GatehouseLoaders
import Testing

/// The comparison Darwin's loader makes between a key and the names the volume stores; the
/// system call that reports those names is Darwin-only, the comparison runs everywhere.
@Suite("Stored spelling")
struct StoredSpellingTests {
    /// The first mismatch between the names of `key` and `stored` (one stored name per name of
    /// the key, in order), as the loader finds it: name by name, each by its UTF-8 offsets.
    func firstMismatch(_ key: String, stored: [String]) -> DiskLoaderError? {
        var start = 0
        for (name, storedName) in zip(key.utf8.split(separator: 0x2F), stored) {
            let component = start..<(start + name.count)
            if let error = StoredSpelling.mismatch(in: key, component: component, stored: storedName.utf8) {
                return error
            }
            start = component.upperBound + 1
        }
        return nil
    }

    /// The payload of a ``DiskLoaderError/spellingMismatch(key:stored:)`` as bytes: `String`'s
    /// `==` would hold canonically equivalent spellings equal.
    func bytes(_ error: DiskLoaderError?) -> (key: [UInt8], stored: [UInt8])? {
        guard case .spellingMismatch(let key, let stored) = error else { return nil }
        return (Array(key.utf8), Array(stored.utf8))
    }

    @Test func aKeySpelledExactlyAsStoredMatches() {
        #expect(firstMismatch("avatars/alice.png", stored: ["avatars", "alice.png"]) == nil)
        #expect(firstMismatch("café/naïve.txt", stored: ["café", "naïve.txt"]) == nil)
        #expect(firstMismatch("a", stored: ["a"]) == nil)
    }

    @Test func aNameDifferingInCaseIsAMismatchNamingThePathAsStored() {
        let error = firstMismatch("avatars/alice.png", stored: ["Avatars", "Alice.png"])
        #expect(bytes(error)?.key == Array("avatars/alice.png".utf8))
        #expect(bytes(error)?.stored == Array("Avatars".utf8))
        let last = firstMismatch("Avatars/Alice.png", stored: ["Avatars", "alice.png"])
        #expect(bytes(last)?.stored == Array("Avatars/alice.png".utf8))
        #expect(
            last?.errorDescription
                == "The key \"Avatars/Alice.png\" is spelled differently on disk, where its path begins "
                + "\"Avatars/alice.png\"; the volume finds names regardless of case or Unicode "
                + "normalization, so the loader expects a key that spells every name byte for byte as stored."
        )
    }

    @Test func decomposedAndPrecomposedSpellingsMismatchThoughStringsCallThemEqual() {
        let decomposed = "cafe\u{301}.txt"
        let precomposed = "caf\u{E9}.txt"
        #expect(decomposed == precomposed, "Swift's String == holds canonically equivalent text equal")
        let error = firstMismatch("menu/" + decomposed, stored: ["menu", precomposed])
        #expect(bytes(error)?.key == Array("menu/cafe\u{301}.txt".utf8))
        #expect(bytes(error)?.stored == Array("menu/caf\u{E9}.txt".utf8))
        #expect(
            error?.errorDescription?.contains(
                "(the same text in another Unicode form: U+0063 U+0061 U+0066 U+0065 U+0301 U+002E U+0074 "
                    + "U+0078 U+0074 in the key, U+0063 U+0061 U+0066 U+00E9 U+002E U+0074 U+0078 U+0074 on disk)"
            )
                == true, "\(String(describing: error?.errorDescription))")
        let reverse = firstMismatch(precomposed, stored: [decomposed])
        #expect(bytes(reverse)?.stored == Array(decomposed.utf8))
    }

    @Test func theKelvinSignAndTheLetterKMismatch() {
        #expect("\u{212A}" == "K", "U+212A KELVIN SIGN is canonically equivalent to K")
        let error = firstMismatch("\u{212A}elvin/scale.txt", stored: ["Kelvin", "scale.txt"])
        #expect(bytes(error)?.stored == Array("Kelvin".utf8))
        #expect(error?.errorDescription?.contains("U+212A U+0065") == true)
        let reverse = firstMismatch("Kelvin/scale.txt", stored: ["\u{212A}elvin", "scale.txt"])
        #expect(bytes(reverse)?.stored == Array("\u{212A}elvin".utf8))
    }

    @Test func onlyAMiddleNameDiffersAndThePathUpToItIsReported() {
        let key = "users/alice/avatars/me.png"
        let second = firstMismatch(key, stored: ["users", "Alice", "avatars", "me.png"])
        #expect(bytes(second)?.key == Array(key.utf8))
        #expect(bytes(second)?.stored == Array("users/Alice".utf8))
        let third = firstMismatch(key, stored: ["users", "alice", "Avatars", "me.png"])
        #expect(bytes(third)?.stored == Array("users/alice/Avatars".utf8))
        let decomposedMiddle = firstMismatch("a/e\u{301}/b", stored: ["a", "\u{E9}", "b"])
        #expect(bytes(decomposedMiddle)?.stored == Array("a/\u{E9}".utf8))
        #expect(firstMismatch(key, stored: ["users", "alice", "avatars", "me.png"]) == nil)
    }

    @Test func aStoredNameLongerOrShorterThanTheKeysMismatches() {
        #expect(bytes(firstMismatch("a/b", stored: ["a", "bb"]))?.stored == Array("a/bb".utf8))
        #expect(bytes(firstMismatch("ab/c", stored: ["a", "c"]))?.stored == Array("a".utf8))
    }
}
