import GatehousePolicies
import GatehouseTestSupport
import Testing

@Suite("PatternIndex")
struct PatternIndexTests {
    static let table: [(pattern: String, text: String, matches: Bool)] = [
        ("avatars/alice.png", "avatars/alice.png", true),
        ("avatars/alice.png", "avatars/alice.pn", false),
        ("avatars/alice.png", "avatars/alice.pngx", false),
        ("", "", true),
        ("", "a", false),
        ("*", "", true),
        ("*", "anything/at/all", true),
        ("**", "x", true),
        ("avatars/*", "avatars/", true),
        ("avatars/*", "avatars/alice/deep/file.png", true),
        ("avatars/*", "avatars", false),
        ("avatars/*", "Avatars/x", false),
        ("*.png", "a/b/c.png", true),
        ("*.png", "a/b/c.png.bak", false),
        ("avatars/*/private-*", "avatars/bob/private-1.png", true),
        ("avatars/*/private-*", "avatars/bob/x/private-", true),
        ("avatars/*/private-*", "avatars/bob/public-1.png", false),
        ("avatars/*/private-*", "avatars//private-", true),
        ("a*b*c", "abc", true),
        ("a*b*c", "aXbYc", true),
        ("a*b*c", "acb", false),
        ("a*b*c", "abcbc", true),
        ("a*b*c", "abcb", false),
        ("*ab", "aab", true),
        ("*aab", "aaab", true),
        ("a*a", "a", false),
        ("a*a", "aa", true),
        ("é*", "été", true),
        ("é*", "e\u{301}t\u{e9}", false),  // byte-wise: a decomposed é is different bytes
        ("a*", "*", false),
        ("a\\*", "a\\x", true),  // no escapes: the backslash is a literal byte
    ]

    @Test(arguments: table)
    func matchesAsTheTableSays(pattern: String, text: String, matches: Bool) {
        let index = PatternIndex([pattern])
        #expect(index.contains(match: text) == matches)
        #expect(referenceGlobMatch(pattern, text) == matches)
    }

    @Test func reportsEveryMatchingPatternAndNoOther() {
        let patterns = [
            "avatars/*", "avatars/alice.png", "*.png", "avatars/*/x", "*", "public/*", "avatars/a*",
        ]
        let index = PatternIndex(patterns)
        let found = Set(index.matches(of: "avatars/alice.png").map { index.pattern($0) })
        #expect(found == ["avatars/*", "avatars/alice.png", "*.png", "*", "avatars/a*"])
    }

    @Test func patternsSharingAPrefixAreMatchedTogetherAndOnlyThere() {
        let patterns = [
            "avatars/*", "avatars/*/private-*", "avatars/*.png", "avatarz/*", "avatars/a*", "avatars/**",
            "avatars/",
        ]
        let index = PatternIndex(patterns)
        let found = { (text: String) in Set(index.matches(of: text).map { index.pattern($0) }) }
        #expect(
            found("avatars/bob/private-1.png") == [
                "avatars/*", "avatars/*/private-*", "avatars/*.png", "avatars/**",
            ])
        #expect(found("avatarz/a.png") == ["avatarz/*"])
        #expect(found("avatars/") == ["avatars/*", "avatars/**", "avatars/"])
        #expect(found("avatars") == [])
        for text in ["avatars/bob/private-1.png", "avatarz/a.png", "avatars/", "avatars/a", "avatar"] {
            #expect(found(text) == Set(patterns.filter { referenceGlobMatch($0, text) }), "text \(text)")
        }
    }

    @Test func insertingTheSamePatternAgainReturnsItsId() {
        var index = PatternIndex()
        let first = index.insert("a*b")
        let second = index.insert("exact")
        #expect(index.insert("a*b") == first)
        #expect(index.insert("exact") == second)
        #expect(index.count == 2)
        #expect(index.id(of: "a*b") == first)
        #expect(index.id(of: "aXb") == nil)
        #expect(index.pattern(second) == "exact")
    }

    /// The tables key spellings and prefixes by a 32-bit FNV-1a hash, under which `costarring`
    /// and `liquid` (and `declinate` and `macallums`) collide: each must still be its own
    /// pattern, found only by its own text, as an exact pattern and as a prefix.
    @Test func spellingsWithTheSameHashStayApart() {
        var index = PatternIndex()
        let costarring = index.insert("costarring")
        let liquid = index.insert("liquid")
        let costarringStar = index.insert("costarring/*")
        let liquidStar = index.insert("liquid/*")
        let declinate = index.insert("declinate*")
        let macallums = index.insert("macallums*")
        #expect(Set([costarring, liquid, costarringStar, liquidStar, declinate, macallums]).count == 6)
        #expect(index.insert("liquid") == liquid)
        #expect(index.id(of: "costarring") == costarring)
        #expect(index.id(of: "liquid") == liquid)
        #expect(index.matches(of: "costarring") == [costarring])
        #expect(index.matches(of: "liquid") == [liquid])
        #expect(index.matches(of: "liquid/x") == [liquidStar])
        #expect(index.matches(of: "costarring/x") == [costarringStar])
        #expect(index.matches(of: "declinate-1") == [declinate])
        #expect(index.matches(of: "macallums-1") == [macallums])
        #expect(index.matches(of: "zinke").isEmpty)
    }

    @Test func stoppingTheWalkStopsAtTheFirstMatch() {
        let index = PatternIndex(["*", "a*", "ab*", "abc"])
        var visited = 0
        let stopped = index.forEachMatch(of: "abc") { _ in
            visited += 1
            return true
        }
        #expect(stopped)
        #expect(visited == 1)
        #expect(!index.forEachMatch(of: "abc") { _ in false })
    }

    @Test func emptyIndexMatchesNothing() {
        let index = PatternIndex()
        #expect(!index.contains(match: ""))
        #expect(!index.contains(match: "a"))
        #expect(index.count == 0)
    }

    @Test func agreesWithTheReferenceMatcherOnRandomPatterns() {
        var random = SplitMix64(seed: 0x5eed_0001)
        for _ in 0..<40 {
            let patterns = (0..<Int.random(in: 1...60, using: &random)).map { _ in
                random.string(from: "ab/**", maxLength: 6)
            }
            let index = PatternIndex(patterns)
            let unique = Array(Set(patterns))
            for _ in 0..<60 {
                let text = random.string(from: "ab/", maxLength: 8)
                let expected = Set(unique.filter { referenceGlobMatch($0, text) })
                let found = Set(index.matches(of: text).map { index.pattern($0) })
                #expect(found == expected, "text \(text)")
            }
        }
    }

    @Test(arguments: ["ab/", "ab/*", "ab/**"])
    func containsMatchAgreesWithTheReferenceOnExactOnlyWildcardOnlyAndMixedSets(alphabet: String) {
        // "ab/" gives exact patterns only, "ab/**" mostly wildcards: `contains(match:)` looks an
        // exact pattern up first and walks the groups only when the set has wildcards.
        var random = SplitMix64(seed: 0x5eed_0002)
        for _ in 0..<40 {
            let patterns = (0..<Int.random(in: 1...40, using: &random)).map { _ in
                random.string(from: alphabet, maxLength: 5)
            }
            let index = PatternIndex(patterns)
            for _ in 0..<60 {
                let text = random.string(from: "ab/", maxLength: 6)
                let expected = patterns.contains { referenceGlobMatch($0, text) }
                #expect(index.contains(match: text) == expected, "text \(text) in \(patterns)")
                #expect(index.matches(of: text).isEmpty == !expected, "text \(text) in \(patterns)")
            }
        }
    }

    @Test func globWithManyStarsOnALongNearMissFinishesQuickly() {
        // Exponential backtracking would never finish this; the matcher is at most quadratic.
        let index = PatternIndex(["*a*a*a*a*a*a*a*a*a*a*b"])
        let text = String(repeating: "a", count: 3000)
        #expect(!index.contains(match: text))
        #expect(index.contains(match: text + "b"))
    }

    @Test func hundredThousandPatternsAnswerExactly() {
        var patterns: [String] = []
        for user in 0..<50_000 {
            patterns.append("avatars/user\(user)/*")
            patterns.append("docs/user\(user).txt")
        }
        let index = PatternIndex(patterns)
        #expect(index.count == 100_000)
        #expect(
            index.matches(of: "avatars/user4711/a.png").map { index.pattern($0) } == ["avatars/user4711/*"])
        #expect(index.matches(of: "docs/user4711.txt").map { index.pattern($0) } == ["docs/user4711.txt"])
        #expect(!index.contains(match: "avatars/user50000/a.png"))
        #expect(!index.contains(match: "docs/user4711.txt2"))
    }
}
