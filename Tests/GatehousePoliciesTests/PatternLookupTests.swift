import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// The glob matcher and the look-up of patterns by folder that rules files and allow-lists use.
@Suite("Pattern look-up")
struct PatternLookupTests {
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
        let index = PatternLookup([pattern])
        #expect(index.contains(match: text) == matches)
        #expect(AccessPlan.Pattern.matches(pattern, text) == matches)
        #expect(referenceGlobMatch(pattern, text) == matches)
    }

    /// Decisions (a rule's spelling), near misses and plans (a plan's pattern) match with one
    /// matcher, so a plan's pattern matches exactly what the rule's spelling does.
    @Test(arguments: table)
    func aPlansPatternMatchesWhatTheRulesSpellingMatches(pattern: String, text: String, matches: Bool) {
        #expect(AccessPlan.Pattern(pattern).matches(text) == matches)
    }

    /// In a plan's pattern a substituted value is text: its `*` and `\` match only themselves.
    @Test func aStarOrBackslashInAPlansRunIsText() {
        let pattern = AccessPlan.Pattern(runs: ["tenants/a*b\\c/", ""])
        #expect(pattern.description == #"tenants/a\*b\\c/*"#)
        #expect(pattern.matches(#"tenants/a*b\c/x"#))
        #expect(!pattern.matches(#"tenants/aXb\c/x"#))
        #expect(!pattern.matches(#"tenants/a*bc/x"#))
        #expect(AccessPlan.Pattern(runs: ["*"]).matches("*"))
        #expect(!AccessPlan.Pattern(runs: ["*"]).matches("x"))
    }

    @Test func reportsEveryMatchingPatternAndNoOther() {
        let patterns = [
            "avatars/*", "avatars/alice.png", "*.png", "avatars/*/x", "*", "public/*", "avatars/a*",
        ]
        let index = PatternLookup(patterns)
        let found = Set(index.matches(of: "avatars/alice.png").map { index.patterns[$0] })
        #expect(found == ["avatars/*", "avatars/alice.png", "*.png", "*", "avatars/a*"])
    }

    @Test func patternsSharingAPrefixAreMatchedTogetherAndOnlyThere() {
        let patterns = [
            "avatars/*", "avatars/*/private-*", "avatars/*.png", "avatarz/*", "avatars/a*", "avatars/**",
            "avatars/",
        ]
        let index = PatternLookup(patterns)
        let found = { (text: String) in Set(index.matches(of: text).map { index.patterns[$0] }) }
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

    @Test func aPatternGivenTwiceMatchesUnderEachId() {
        let index = PatternLookup(["a*b", "exact", "a*b", "exact"])
        #expect(index.patterns.count == 4)
        #expect(Set(index.matches(of: "aXb")) == [0, 2])
        #expect(index.matches(of: "exact").count == 1)
        #expect(index.matches(of: "aXc").isEmpty)
    }

    /// Spellings once hashed alike (by a 32-bit FNV-1a, `costarring` and `liquid`, `declinate`
    /// and `macallums`) must each be its own pattern, found only by its own text, as an exact
    /// pattern and as a folder.
    @Test func differentSpellingsStayApart() {
        let patterns = ["costarring", "liquid", "costarring/*", "liquid/*", "declinate*", "macallums*"]
        let index = PatternLookup(patterns)
        let found = { (text: String) in index.matches(of: text).map { index.patterns[$0] } }
        #expect(found("costarring") == ["costarring"])
        #expect(found("liquid") == ["liquid"])
        #expect(found("liquid/x") == ["liquid/*"])
        #expect(found("costarring/x") == ["costarring/*"])
        #expect(found("declinate-1") == ["declinate*"])
        #expect(found("macallums-1") == ["macallums*"])
        #expect(found("zinke").isEmpty)
    }

    @Test func stoppingTheWalkStopsAtTheFirstMatch() {
        let index = PatternLookup(["*", "a*", "ab*", "abc"])
        var visited = 0
        let stopped = index.forEachMatch(of: "abc") { _ in
            visited += 1
            return true
        }
        #expect(stopped)
        #expect(visited == 1)
        #expect(!index.forEachMatch(of: "abc") { _ in false })
    }

    /// An exact pattern matches the same bytes only, not a canonically equivalent spelling
    /// (which a dictionary of strings would find).
    @Test func anExactPatternMatchesItsBytesOnly() {
        let index = PatternLookup(["caf\u{e9}", "caf\u{e9}/*"])
        #expect(index.contains(match: "caf\u{e9}"))
        #expect(!index.contains(match: "cafe\u{301}"))
        #expect(!index.contains(match: "cafe\u{301}/x"))
        #expect(index.contains(match: "caf\u{e9}/x"))
    }

    @Test func placeholdersTakeTheRequestsValuesOnlyWhenGiven() {
        let index = PatternLookup(["users/{subject}/*", "{tenant}/x"], placeholders: true)
        let request = AccessRequest(
            subject: "alice", action: "read", resource: "", attributes: ["tenant": "t1"])
        let found = { (text: String) in
            var ids: [Int] = []
            index.forEachMatch(of: text, values: request) { id in
                ids.append(id)
                return false
            }
            return ids
        }
        #expect(found("users/alice/a") == [0])
        #expect(found("users/bob/a").isEmpty)
        #expect(found("t1/x") == [1])
        #expect(!PatternLookup(["{tenant}/x"]).contains(match: "t1/x"))
        #expect(PatternLookup(["{tenant}/x"]).contains(match: "{tenant}/x"))
    }

    @Test func emptyIndexMatchesNothing() {
        let index = PatternLookup([])
        #expect(!index.contains(match: ""))
        #expect(!index.contains(match: "a"))
        #expect(index.patterns.isEmpty)
    }

    @Test func agreesWithTheReferenceMatcherOnRandomPatterns() {
        var random = SplitMix64(seed: 0x5eed_0001)
        for _ in 0..<40 {
            let patterns = (0..<Int.random(in: 1...60, using: &random)).map { _ in
                random.string(from: "ab/**", maxLength: 6)
            }
            let index = PatternLookup(patterns)
            let unique = Array(Set(patterns))
            for _ in 0..<60 {
                let text = random.string(from: "ab/", maxLength: 8)
                let expected = Set(unique.filter { referenceGlobMatch($0, text) })
                let found = Set(index.matches(of: text).map { index.patterns[$0] })
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
            let index = PatternLookup(patterns)
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
        let index = PatternLookup(["*a*a*a*a*a*a*a*a*a*a*b"])
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
        let index = PatternLookup(patterns)
        #expect(index.patterns.count == 100_000)
        #expect(
            index.matches(of: "avatars/user4711/a.png").map { index.patterns[$0] } == ["avatars/user4711/*"])
        #expect(index.matches(of: "docs/user4711.txt").map { index.patterns[$0] } == ["docs/user4711.txt"])
        #expect(!index.contains(match: "avatars/user50000/a.png"))
        #expect(!index.contains(match: "docs/user4711.txt2"))
    }
}

extension PatternLookup {
    /// The ids of every pattern matching `text`.
    fileprivate func matches(of text: String) -> [Int] {
        var ids: [Int] = []
        forEachMatch(of: text) { id in
            ids.append(id)
            return false
        }
        return ids
    }
}
