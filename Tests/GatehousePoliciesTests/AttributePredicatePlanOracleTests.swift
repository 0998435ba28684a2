import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// The oracle for attribute predicates: over random rules that read the resources' owners (in
/// conditions, placeholders, denies and wildcards) and a universe of names that differ in case
/// and hold `%`, `_`, `'`, `\` and `"`, each with an owner or none, a plan's
/// `permits(_:attributes:)` agrees with the gate's decision on the request with that owner, for
/// every pair where the plan has no part left to check each name, and never permits a denied one
/// elsewhere. The caller's claimed owner never changes the plan.
@Suite("Plans with attribute predicates agree with decisions")
struct AttributePredicatePlanOracleTests {
    struct Tally {
        var pairs = 0
        var exactPairs = 0
        var plansWithPredicates = 0
        var allowedByPredicate = 0
        var disagreements: [String] = []
    }

    /// The universe's names, their case flipped and with `"` added, each owned by one of a small
    /// set of owners (differing in case too) or by none.
    static func resources(_ universe: PlanUniverse) -> [(name: String, owner: String?)] {
        let owners: [String?] = ["alice", "bob", "Alice", "carol", nil, "it's", "a\"b", "dave", "t1"]
        var names = Set(universe.resources)
        for name in universe.resources.prefix(60) {
            names.insert(name.uppercased())
            names.insert(name + "\"q")
        }
        return names.sorted().enumerated().map { index, name in
            (name, owners[(index * 7 + name.utf8.count) % owners.count])
        }
    }

    /// Two rules on the resource's owner, drawn by `seed`, after the universe's own.
    static func ownerRules(_ seed: UInt64) -> String {
        let rules = [
            "allow * * * if owner={subject}", "allow @g1 read docs/* if owner=alice",
            "deny * write * if owner=Alice",
            "deny bob * * if owner={subject}", "allow * read *%* if owner=it's",
            "allow a* * * if owner=carol device=managed",
            "deny @g3 * *_* if owner=bob",
        ]
        return rules[Int(seed) % rules.count] + "\n" + rules[Int(seed / 3) % rules.count] + "\n"
    }

    static func check(_ seed: UInt64, inverted: Bool, into tally: inout Tally) async throws {
        let universe = PlanUniverse(seed: seed, resourceCount: 160, callerCount: 20, owners: true)
        let resources = Self.resources(universe)
        let owners = Dictionary(resources.compactMap { item in item.owner.map { (item.name, $0) } }) { a, _ in
            a
        }
        let rules = try RulesPolicy(text: universe.text + Self.ownerRules(seed), name: "generated")
        let gate = AccessGate(
            gatekeepers: [inverted ? Not(rules) : rules],
            resourceAttributes: ResourceAttributes<String>(["owner"]) {
                owners[$0].map { ["owner": $0] } ?? [:]
            })
        for caller in universe.callers {
            let action = AccessAction(rawValue: caller.action)
            let plan = try await gate.plan(
                subject: caller.subject, action: action, attributes: caller.attributes)
            var unclaimed = caller.attributes
            unclaimed["owner"] = nil
            let withoutClaim = try await gate.plan(
                subject: caller.subject, action: action, attributes: unclaimed)
            if plan != withoutClaim && tally.disagreements.count < 5 {
                tally.disagreements.append("seed \(seed), \(caller): the caller's owner changed the plan")
            }
            if !plan.attributeNames.isEmpty { tally.plansWithPredicates += 1 }
            for (resource, owner) in resources {
                let attributes = owner.map { ["owner": $0] } ?? [:]
                let allowed = try await gate.decide(
                    AccessRequest(
                        subject: caller.subject, action: action, resource: resource,
                        attributes: caller.attributes)
                ).isAllowed
                let permits = plan.permits(resource, attributes: attributes)
                tally.pairs += 1
                if plan.unplanned.isEmpty { tally.exactPairs += 1 }
                if permits && !plan.permits(resource) { tally.allowedByPredicate += 1 }
                let wrong = (permits && !allowed) || (plan.unplanned.isEmpty && permits != allowed)
                if wrong && tally.disagreements.count < 5 {
                    tally.disagreements.append(
                        "seed \(seed)\(inverted ? " (not)" : ""), \(caller), \(resource.debugDescription) owned by "
                            + "\(owner ?? "-"): allowed \(allowed), permits \(permits): \(plan.residual)")
                }
            }
        }
    }

    // 10 universes × 20 callers × about 275 names: over 50,000 pairs each test, most of them under
    // a plan with no part left to check each name (the rest read `{owner}` in a placeholder); five
    // universes a case, so the cases run side by side.
    @Test(arguments: [UInt64(300)..<305, UInt64(305)..<310])
    func aPlanWithOwnerPredicatesAgreesWithEveryDecisionOfItsRules(seeds: Range<UInt64>) async throws {
        var tally = Tally()
        for seed in seeds {
            try await Self.check(seed, inverted: false, into: &tally)
        }
        #expect(tally.pairs >= 25_000 && tally.exactPairs >= 17_500, "\(tally.exactPairs) of \(tally.pairs)")
        #expect(tally.plansWithPredicates >= 20, "\(tally.plansWithPredicates)")
        #expect(tally.allowedByPredicate >= 100, "\(tally.allowedByPredicate)")
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements)")
    }

    @Test(arguments: [UInt64(300)..<305, UInt64(305)..<310])
    func theNotOfAPlanWithOwnerPredicatesAgreesWithEveryDecision(seeds: Range<UInt64>) async throws {
        var tally = Tally()
        for seed in seeds {
            try await Self.check(seed, inverted: true, into: &tally)
        }
        #expect(tally.pairs >= 25_000 && tally.exactPairs >= 17_500, "\(tally.exactPairs) of \(tally.pairs)")
        #expect(tally.plansWithPredicates >= 20, "\(tally.plansWithPredicates)")
        #expect(tally.allowedByPredicate >= 5, "\(tally.allowedByPredicate)")
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements)")
    }
}
