import GatehouseCore
import GatehousePolicies

/// The promises the invariant case checks the 100,000-rule file against: one that every allow
/// meets (kept by the file's deny), and three that no allow meets.
let benchInvariants = """
    never  *  *       avatars/*/private-*
    never  *  write   *
    never  *  delete  *
    never  *  *       secrets/*
    """

/// `load-100k`: a 100,000-rule file parsed and indexed, as a reload does; `load-invariants-100k`:
/// the same, then checked against ``benchInvariants`` (docs/invariants.md), as a reload of a
/// service with invariants does.
func invariantCases(wanted: (String) -> Bool) throws -> [BenchCase] {
    guard wanted("load-100k") || wanted("load-invariants-100k") else { return [] }
    let bytes = Array(Rules.text(count: 100_000).utf8)
    let invariants = try Invariants(text: benchInvariants, name: "bench.invariants")
    let breaches = try RulesFile.parse(bytes, fileName: "bench.rules").breaches(of: invariants)
    precondition(breaches.isEmpty, "the bench rules must keep the bench invariants: \(breaches)")
    return [
        BenchCase("load-100k", "parse and index a 100,000-rule file", iterations: 4, quick: 1) { n in
            var sum = 0
            for _ in 0..<n { sum &+= try RulesFile.parse(bytes, fileName: "bench.rules").ruleCount }
            return sum
        },
        BenchCase(
            "load-invariants-100k", "parse and index a 100,000-rule file, then check 4 invariants",
            iterations: 4, quick: 1
        ) { n in
            var sum = 0
            for _ in 0..<n {
                let file = try RulesFile.parse(bytes, fileName: "bench.rules")
                sum &+= file.ruleCount + file.breaches(of: invariants).count
            }
            return sum
        },
    ]
}
