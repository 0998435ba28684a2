import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehousePolicies

/// A plan's `permits` against the gate's `decide`, name by name.
@Suite("Plans agree with decisions")
struct PlanAgreementTests {
    /// Random rules files (groups, placeholders, conditions, denies, wildcards), each planned
    /// for two dozen callers and checked against a decision for every resource of the universe,
    /// those the identity rule refuses included.
    @Test func aRulesPlanAgreesWithEveryDecisionOverARandomUniverse() async throws {
        var pairs = 0
        var disagreements: [String] = []
        for seed in UInt64(0)..<20 {
            let universe = PlanUniverse(seed: seed)
            let gate = AccessGate(gatekeepers: [try RulesPolicy(text: universe.text, name: "generated")])
            for caller in universe.callers {
                let plan = try await Self.plan(universe, gate: gate, for: caller)
                for resource in universe.resources {
                    let request = AccessRequest(
                        subject: caller.subject, action: caller.action, resource: resource,
                        attributes: caller.attributes)
                    let allowed = try await gate.decide(request).isAllowed
                    pairs += 1
                    if allowed != plan.permits(resource), disagreements.count < 5 {
                        disagreements.append(
                            "seed \(seed), \(caller), \(resource.debugDescription): decide \(allowed)")
                    }
                }
            }
        }
        #expect(pairs >= 100_000)
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// The plan of `universe`'s rules for `caller`, through the rules planner.
    static func plan(_ universe: PlanUniverse, gate: AccessGate, for caller: PlanUniverse.Caller) async throws
        -> AccessPlan
    {
        let request = AccessPlan.Request(
            subject: caller.subject, action: caller.action, attributes: caller.attributes, instant: nil)
        let rules = universe.rules.map {
            RulesPlanner.Rule(
                effect: $0.allows ? .allow : .deny, subject: $0.subject, action: $0.action,
                resource: ResourceIdentity.normalized($0.resource), conditions: $0.conditions)
        }
        let part = RulesPlanner.part(rules, for: request) { subject in
            Set(universe.members.filter { $0.value.contains(subject) }.keys)
        }
        return AccessPlan(.allOf([part.allowed]), identity: gate.identity)
    }
}
