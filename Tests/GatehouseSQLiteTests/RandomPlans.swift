import GatehouseCore
import GatehouseTestSupport

/// Seeded names and plans for the tests that run a plan's SQL on a database: names built of
/// pieces that differ in case or that SQL must escape, plans of patterns built of the same pieces.
enum RandomPlans {
    /// What names and patterns are made of: case, SQL's quotes and wildcards, GLOB's, `/`, `é`.
    static let pieces = ["a", "A", "b", "%", "_", "'", "\\", "\"", "*", "?", "[", "]", "/", "é", "E'"]

    /// `count` distinct names of 1 to 4 of `pieces`, those `accepted` keeps.
    static func names(
        count: Int, pieces: [String] = pieces, using generator: inout SplitMix64,
        accepted: (String) -> Bool = { ResourceIdentity.path.violation(in: $0) == nil }
    ) -> [String] {
        var names = Set<String>()
        while names.count < count {
            let length = Int.random(in: 1...4, using: &generator)
            let name = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if accepted(name) { names.insert(name) }
        }
        return names.sorted()
    }

    /// A plan: an `anyOf` of 1 to 4 patterns, sometimes less one more pattern (a deny).
    static func plan(pieces: [String] = pieces, using generator: inout SplitMix64) -> AccessPlan {
        func pattern() -> AccessPlan.Residual {
            let length = Int.random(in: 1...4, using: &generator)
            return .matching((0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        let anyOf = AccessPlan.Residual.anyOf(
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in pattern() })
        return AccessPlan(Bool.random(using: &generator) ? .allOf([anyOf, .not(pattern())]) : anyOf)
    }
}
