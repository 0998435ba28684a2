import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// A rules plan never folds an attribute the service takes from its resources: not from the
/// caller's value of the same name, and not as missing. A condition on one becomes an attribute
/// predicate; the names a rule reading one in a placeholder can match are left to the gatekeeper,
/// name by name; everything else stays exact.
@Suite("Rules plans and the resources' own attributes")
struct ResourceAttributePlanTests {
    static let owners: [String: String] = ["docs/mine": "alice", "docs/theirs": "bob"]

    /// A gate over `rules` whose resources have the owners above (`docs/none` has none).
    static func gate(_ rules: String, names: ResourceAttributeNames = .only(["owner"])) throws -> AccessGate {
        let read: @Sendable (String) async throws -> [String: String] = { key in
            owners[key].map { ["owner": $0] } ?? [:]
        }
        let source =
            names == .every
            ? ResourceAttributes<String>(everyName: read) : ResourceAttributes<String>(["owner"], read: read)
        return AccessGate(
            gatekeepers: [try RulesPolicy(text: rules, name: "owners")], resourceAttributes: source)
    }

    static func allowed(_ gate: AccessGate, _ subject: String, _ action: AccessAction, _ resource: String)
        async throws -> Bool
    {
        try await gate.decide(
            AccessRequest(
                subject: subject, action: action, resource: resource, attributes: ["owner": subject])
        ).isAllowed
    }

    @Test func aConditionOnTheResourcesOwnerBecomesAnAttributePredicateWhateverTheCallerClaims()
        async throws
    {
        let gate = try Self.gate("allow * write docs/* if owner={subject}\nallow * read public/*\n")
        for claim in [[:], ["owner": "alice"], ["owner": "bob"]] {
            let plan = try await gate.plan(subject: "alice", action: .write, attributes: claim)
            #expect(plan.unplanned.isEmpty && plan.attributeNames == ["owner"])
            #expect("\(plan.residual)".contains("owner = \"alice\""))
            #expect(plan.permits("docs/mine", attributes: ["owner": "alice"]))
            #expect(!plan.permits("docs/theirs", attributes: ["owner": "bob"]))
            #expect(!plan.permits("docs/mine"), "a plan that folded the claim \(claim) would permit it")
            #expect(plan.candidates.permits("docs/mine") && plan.candidates.permits("docs/none"))
            #expect(!plan.candidates.permits("public/a") && !plan.candidates.permits("other"))
        }
        #expect(try await Self.allowed(gate, "alice", .write, "docs/mine"))
        #expect(try await !Self.allowed(gate, "alice", .write, "docs/theirs"))
        #expect(try await !Self.allowed(gate, "alice", .write, "docs/none"))
    }

    @Test func theRestOfThePlanStaysExact() async throws {
        let gate = try Self.gate("allow * read docs/* if owner={subject}\nallow * read public/*\n")
        let plan = try await gate.plan(subject: "alice", action: .read, attributes: ["owner": "alice"])
        #expect(plan.permits("public/a") && plan.candidates.permits("public/a"))
        #expect(!plan.permits("other") && !plan.candidates.permits("other"))
        #expect(!plan.permits("docs/mine") && plan.candidates.permits("docs/mine"))
        #expect(plan.permits("docs/mine", attributes: ["owner": "alice"]))
        #expect(!plan.permits("docs/theirs", attributes: ["owner": "bob"]))
    }

    @Test func aPlaceholderNamingTheResourcesAttributeWidensToItsPatternAndIsAsked() async throws {
        let gate = try Self.gate("allow * read docs/{owner}/*\n")
        let plan = try await gate.plan(subject: "alice", action: .read, attributes: ["owner": "alice"])
        #expect(plan.unplanned == ["owners"])
        #expect(!plan.permits("docs/alice/a"))
        #expect(plan.candidates.permits("docs/alice/a") && plan.candidates.permits("docs/zoe/a"))
        #expect(!plan.candidates.permits("public/a"))
    }

    @Test func aDenyOnTheResourcesOwnerIsExactAndACertainDenyStillOverridesIt() async throws {
        let gate = try Self.gate(
            "allow * read docs/*\ndeny * read docs/* if owner=mallory\ndeny * read docs/secret/*\n")
        let plan = try await gate.plan(subject: "alice", action: .read, attributes: ["owner": "mallory"])
        // A folded caller's `owner=mallory` would have made the deny hold for every name, and a
        // folded missing owner would have dropped it for every name.
        #expect(plan.unplanned.isEmpty)
        #expect(!plan.permits("docs/a", attributes: ["owner": "mallory"]))
        #expect(plan.permits("docs/a", attributes: ["owner": "alice"]) && plan.permits("docs/a"))
        #expect(!plan.permits("docs/secret/a", attributes: ["owner": "alice"]))
        #expect(!plan.candidates.permits("docs/secret/a") && plan.candidates.permits("docs/a"))
        let inverted = try await AccessGate(
            gatekeepers: [Not(try RulesPolicy(text: "allow * read docs/*\ndeny * read docs/* if owner=x\n"))],
            resourceAttributes: ResourceAttributes<String>(["owner"]) { _ in [:] }
        ).plan(subject: "alice", action: .read)
        // `not` of the predicate is exact: denied where the owner is x, allowed elsewhere.
        #expect(inverted.permits("other") && !inverted.permits("docs/a"))
        #expect(inverted.permits("docs/a", attributes: ["owner": "x"]))
        #expect(
            !inverted.permits("docs/a", attributes: ["owner": "y"]) && inverted.candidates.permits("docs/a"))
    }

    @Test func aCallersValueIsNotFoldedEvenWhenAPlanRequestCarriesIt() async throws {
        let policy = try RulesPolicy(text: "allow * read docs/* if owner={subject}\n", name: "owners")
        let part = try await policy.plan(
            AccessPlan.Request(
                subject: "alice", attributes: ["owner": "alice"], resourceAttributeNames: .only(["owner"])))
        let plan = AccessPlan(part.allowed)
        #expect(!plan.permits("docs/a") && plan.candidates.permits("docs/a"))
        #expect(plan.permits("docs/a", attributes: ["owner": "alice"]))
        #expect(!plan.permits("docs/a", attributes: ["owner": "bob"]))
        #expect(plan.unplanned.isEmpty && plan.attributeNames == ["owner"])
    }

    @Test func withEveryNameTheResourcesEveryConditionIsAskedAndTheSubjectStillFolds() async throws {
        let gate = try Self.gate(
            "allow alice read docs/* if device=managed\nallow bob read bob/*\nallow * read users/{subject}/*\n",
            names: .every)
        let plan = try await gate.plan(subject: "alice", action: .read, attributes: ["device": "managed"])
        #expect(!plan.permits("docs/a") && plan.candidates.permits("docs/a"))
        #expect(plan.permits("users/alice/a") && !plan.candidates.permits("users/bob/a"))
        #expect(!plan.candidates.permits("bob/a"))
    }

    @Test func aFileGatekeeperPlansTheOwnerAsAnAttributePredicate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let url = directory.file("docs.rules")
        try Data("allow * read docs/* if owner={subject}\n".utf8).write(to: url)
        let gate = AccessGate(
            gatekeepers: [FilePolicy(url: url, name: "documents")],
            resourceAttributes: ResourceAttributes<String>(["owner"]) { _ in [:] })
        let plan = try await gate.plan(subject: "alice", action: .read, attributes: ["owner": "alice"])
        #expect(plan.unplanned.isEmpty && plan.attributeNames == ["owner"])
        #expect(!plan.permits("docs/a") && plan.candidates.permits("docs/a"))
        #expect(plan.permits("docs/a", attributes: ["owner": "alice"]))
        #expect(!plan.permits("docs/a", attributes: ["owner": "bob"]))
    }
}

/// The property: over random rules that read the resources' owners, and callers who claim an
/// owner too, a plan never permits what a decision denies, and its candidates hold every name a
/// decision allows.
@Suite("Plans with resource attributes agree with decisions")
struct ResourceAttributePlanAgreementTests {
    /// What one universe showed: pairs decided, and how often the plan had to leave names to the
    /// gate (so that the property is not met by plans that never meet an owner).
    struct Tally {
        var pairs = 0
        var inexactPlans = 0
        var allowedOnlyWhenAsked = 0
        var disagreements: [String] = []
    }

    static func check(
        _ universe: PlanUniverse, seed: UInt64, names: ResourceAttributeNames, inverted: Bool,
        into tally: inout Tally
    ) async throws {
        let owners = universe.owners
        let read: @Sendable (String) async throws -> [String: String] = { key in
            owners[key].map { ["owner": $0] } ?? [:]
        }
        let source =
            names == .every
            ? ResourceAttributes<String>(everyName: read) : ResourceAttributes<String>(["owner"], read: read)
        let rules = try RulesPolicy(text: universe.text, name: "generated")
        let gate = AccessGate(gatekeepers: [inverted ? Not(rules) : rules], resourceAttributes: source)
        for caller in universe.callers {
            let action = AccessAction(rawValue: caller.action)
            let plan = try await gate.plan(
                subject: caller.subject, action: action, attributes: caller.attributes)
            var unclaimed = caller.attributes
            unclaimed["owner"] = nil
            let withoutClaim = try await gate.plan(
                subject: caller.subject, action: action, attributes: unclaimed)
            if plan != withoutClaim, tally.disagreements.count < 5 {
                tally.disagreements.append("seed \(seed), \(caller): the caller's owner changed the plan")
            }
            if !plan.isExact { tally.inexactPlans += 1 }
            let candidates = plan.candidates
            for resource in universe.resources {
                let own = owners[resource].map { ["owner": $0] } ?? [:]
                let request = AccessRequest(
                    subject: caller.subject, action: action, resource: resource, attributes: caller.attributes
                )
                let allowed = try await gate.decide(request).isAllowed
                tally.pairs += 1
                let permits = plan.permits(resource, attributes: own)
                if allowed && !permits { tally.allowedOnlyWhenAsked += 1 }
                if plan.unplanned.isEmpty && permits != allowed && tally.disagreements.count < 5 {
                    tally.disagreements.append(
                        "seed \(seed)\(inverted ? " (not)" : ""), \(caller), \(resource.debugDescription): "
                            + "an exact plan disagrees: \(plan.residual)")
                }
                let wrong =
                    permits && !allowed
                    ? "permits a denied name"
                    : allowed && !candidates.permits(resource) ? "leaves out an allowed name" : nil
                if let wrong, tally.disagreements.count < 5 {
                    tally.disagreements.append(
                        "seed \(seed)\(inverted ? " (not)" : ""), \(caller), \(resource.debugDescription) "
                            + "owned by \(owners[resource] ?? "-"): the plan \(wrong): \(plan.residual)")
                }
            }
        }
    }

    @Test func aRulesPlanWithOwnersNeverPermitsADeniedNameNorLeavesOutAnAllowedOne() async throws {
        var tally = Tally()
        for seed in UInt64(100)..<108 {
            let universe = PlanUniverse(seed: seed, resourceCount: 150, callerCount: 16, owners: true)
            let names: ResourceAttributeNames = seed % 4 == 0 ? .every : .only(["owner"])
            try await Self.check(universe, seed: seed, names: names, inverted: false, into: &tally)
            try await Self.check(universe, seed: seed, names: names, inverted: true, into: &tally)
        }
        // 8 universes × 16 callers × 150 names × (rules, not(rules)); conditions on the owner are
        // attribute predicates now, so only `{owner}` placeholders leave 31 names allowed only when
        // asked.
        #expect(tally.pairs == 38_400)
        #expect(tally.inexactPlans >= 50, "too few plans met a rule that reads an owner")
        #expect(tally.allowedOnlyWhenAsked >= 20, "too few names were allowed only when asked")
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements)")
    }
}
