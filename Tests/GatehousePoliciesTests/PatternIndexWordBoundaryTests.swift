import GatehousePolicies
import Testing

/// The index hashes, compares and searches 8 bytes at a time. These tests put every length,
/// prefix, suffix and middle run on both sides of the word boundaries, next to bytes that trouble
/// word-at-a-time tricks (zero, high bit set, a neighbour of the byte searched for, partial UTF-8),
/// and compare with the byte-by-byte reference.
@Suite("PatternIndex across word boundaries")
struct PatternIndexWordBoundaryTests {
    static let star = UInt8(ascii: "*")
    /// 26 bytes: ASCII, a two-byte UTF-8 character, a zero byte, and bytes with the high bit set.
    static let base: [UInt8] = Array("avatars/user-1234/é".utf8) + [0x00, 0x80, 0xFF, 0x7F, 0x01, 0x60]

    /// The ids the index reports for `text`, as a set.
    static func matches(_ index: PatternIndex, _ text: [UInt8]) -> Set<Int> {
        var found: Set<Int> = []
        _ = text.withUnsafeBufferPointer { text in
            index.forEachMatch(of: text) { id in
                #expect(found.insert(id).inserted, "pattern \(id) reported twice")
                return false
            }
        }
        return found
    }

    /// An index of `patterns` (inserted as bytes) and their ids.
    static func index(_ patterns: [[UInt8]]) -> (PatternIndex, [Int]) {
        var index = PatternIndex()
        let ids = patterns.map { pattern in pattern.withUnsafeBufferPointer { index.insert(bytes: $0) } }
        return (index, ids)
    }

    /// Every prefix of `base`, and `base` with each byte in turn replaced by its neighbour.
    static let texts: [[UInt8]] = {
        var texts = (0...base.count).map { Array(base[..<$0]) } + (0...base.count).map { Array(base[$0...]) }
        for position in base.indices {
            var changed = base
            changed[position] ^= 0x01
            texts.append(changed)
        }
        return texts
    }()

    /// Checks every text against every pattern, and that both outcomes happen.
    static func expectAgreement(_ patterns: [[UInt8]], _ texts: [[UInt8]], minimumMatches: Int) {
        let (index, ids) = index(patterns)
        var matched = 0
        var missed = 0
        for text in texts {
            var expected: Set<Int> = []
            for (pattern, id) in zip(patterns, ids) where referenceGlobMatch(pattern, text) {
                expected.insert(id)
            }
            #expect(matches(index, text) == expected, "text \(text)")
            matched += expected.count
            missed += ids.count - expected.count
        }
        #expect(matched >= minimumMatches && missed >= minimumMatches, "\(matched) matched, \(missed) missed")
    }

    @Test func exactPatternsOfEveryLengthMatchOnlyThemselves() {
        let patterns = (0...Self.base.count).map { Array(Self.base[..<$0]) }
        Self.expectAgreement(patterns, Self.texts, minimumMatches: 27)
    }

    @Test func prefixesAndSuffixesOfEveryLengthAroundAStarAgreeWithTheReference() {
        var patterns: [[UInt8]] = []
        for prefix in 0...17 {
            for suffix in [0, 1, 3, 7, 8, 9, 16] {
                patterns.append(Array(Self.base[..<prefix]) + [Self.star] + Array(Self.base.suffix(suffix)))
            }
        }
        Self.expectAgreement(patterns, Self.texts, minimumMatches: 300)
    }

    @Test func middleRunsOfEveryLengthAndPlaceAgreeWithTheReference() {
        var patterns: [[UInt8]] = []
        for start in [0, 1, 7, 8, 9, 15, 16] {
            for length in [1, 2, 7, 8, 9] where start + length <= Self.base.count {
                let run = Array(Self.base[start..<start + length])
                patterns.append([Self.star] + run + [Self.star])
                patterns.append(
                    Array(Self.base[..<3]) + [Self.star] + run + [Self.star] + Array(Self.base.suffix(2)))
                patterns.append([Self.star] + run + [Self.star, Self.star] + run + [Self.star])
            }
        }
        Self.expectAgreement(patterns, Self.texts, minimumMatches: 100)
    }

    @Test func randomPatternsOverLookAlikeBytesAgreeWithTheReference() {
        // 0x60/0x61/0x62 differ in one bit (a false flag of the zero-byte test lands on such a
        // neighbour); 0x00 and 0xFF are the extremes of those tests; 0xC3 0xA9 is "é".
        let alphabet: [UInt8] = [0x60, 0x61, 0x62, 0x00, 0x01, 0x80, 0xFF, 0xC3, 0xA9]
        var random = MatchingRandom(seed: 0x0b17_e5ee)
        var matched = 0
        for _ in 0..<12 {
            var patterns: [[UInt8]] = []
            for _ in 0..<24 {
                let length = Int.random(in: 0...20, using: &random)
                patterns.append(
                    (0..<length).map { _ in
                        Int.random(in: 0..<6, using: &random) == 0
                            ? Self.star : alphabet.randomElement(using: &random)!
                    })
            }
            var texts: [[UInt8]] = []
            for pattern in patterns {
                // The pattern with each star filled in, so that matches are common.
                texts.append(
                    pattern.flatMap { byte in
                        byte == Self.star
                            ? (0..<Int.random(in: 0...9, using: &random)).map { _ in
                                alphabet.randomElement(using: &random)!
                            } : [byte]
                    })
                texts.append(
                    (0..<Int.random(in: 0...24, using: &random)).map { _ in
                        alphabet.randomElement(using: &random)!
                    })
            }
            let (index, ids) = Self.index(patterns)
            for text in texts {
                var expected: Set<Int> = []
                for (pattern, id) in zip(patterns, ids) where referenceGlobMatch(pattern, text) {
                    expected.insert(id)
                }
                #expect(Self.matches(index, text) == expected, "text \(text)")
                matched += expected.count
            }
        }
        #expect(matched > 300, "\(matched) matches")
    }

    @Test func collectingStopsWhenTheRoomRunsOut() {
        let patterns = ["*", "a*", "ab*", "abc", "*c", "a*c"]
        let index = PatternIndex(patterns)
        var ids = [Int32](repeating: -1, count: 6)
        let all = ids.withUnsafeMutableBufferPointer { index.collectMatches(of: "abc", into: $0) }
        #expect(all == 6)
        #expect(Set(ids.map { patterns[Int($0)] }) == Set(patterns))
        let some = ids.withUnsafeMutableBufferPointer {
            index.collectMatches(of: "abc", into: UnsafeMutableBufferPointer(rebasing: $0[..<5]))
        }
        #expect(some == nil)
        let one = ids.withUnsafeMutableBufferPointer { index.collectMatches(of: "x", into: $0) }
        #expect(one == 1 && ids[0] == 0)
        let none = ids.withUnsafeMutableBufferPointer {
            PatternIndex(["a*"]).collectMatches(of: "x", into: $0)
        }
        #expect(none == 0)
    }

    @Test func aPatternOfStarsAloneMatchesEveryTextOnce() {
        let index = PatternIndex(["*", "**", "***", ""])
        #expect(Set(index.matches(of: "")) == [0, 1, 2, 3])
        #expect(Set(index.matches(of: "anything at all, é")) == [0, 1, 2])
    }
}
