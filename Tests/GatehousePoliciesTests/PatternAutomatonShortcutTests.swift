import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehousePolicies

/// The automaton's two shortcuts agree with a plain walk: whether two patterns share a name,
/// decided from their first and last runs, and the shortest name that is a path, found with the
/// path's shape as one more automaton.
@Suite("Pattern automaton shortcuts")
struct PatternAutomatonShortcutTests {
    /// A random pattern over `a`, `b`, `/` and `.`, with up to three stars.
    static func pattern(_ random: inout SplitMix64) -> AccessPlan.Pattern {
        let letters = ["a", "b", "/", "."]
        var spelling = ""
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let star = Int.random(in: 0..<4, using: &random) == 0
            spelling += star ? "*" : letters.randomElement(using: &random)!
        }
        return AccessPlan.Pattern(spelling)
    }

    @Test func patternsMeetExactlyWhenAWalkFindsANameOfEach() {
        var random = SplitMix64(seed: 39)
        for round in 0..<600 {
            let patterns = (0..<(2 + round % 2)).map { _ in Self.pattern(&random) }
            let all = AccessPlan.Residual.allOf(patterns.map { .matching($0) })
            var automaton = PatternAutomaton([all])
            let walked = automaton.witness(all) != nil
            #expect(PatternAutomaton.meet(patterns) == walked, "\(patterns)")
        }
    }

    @Test func thePathWitnessIsTheShortestPathInTheResidual() {
        var random = SplitMix64(seed: 7)
        // Every name over the letters up to 5 long, shortest first.
        var names = [""]
        var last = [""]
        for _ in 0..<5 {
            last = last.flatMap { name in ["a", "b", "/", ".", "x"].map { name + $0 } }
            names += last
        }
        for _ in 0..<150 {
            let (a, b) = (Self.pattern(&random), Self.pattern(&random))
            let residual = AccessPlan.Residual.allOf([.matching(a), .not(.matching(b))])
            var automaton = PatternAutomaton([residual])
            let found = automaton.pathWitness(residual)
            let shortest = names.first { a.matches($0) && !b.matches($0) && RulesDiff.isTidy($0) }
            if let found {
                #expect(a.matches(found) && !b.matches(found) && RulesDiff.isTidy(found), "\(a) not \(b)")
            }
            if let shortest {
                #expect(found?.unicodeScalars.count == shortest.unicodeScalars.count, "\(a) not \(b)")
            } else if let found {
                #expect(found.unicodeScalars.count > 5, "\(a) not \(b)")
            }
        }
    }
}
