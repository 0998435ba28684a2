import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A gatekeeper that allows the names its patterns match, and plans exactly.
private struct PatternPolicy: AccessPolicy {
    let name: String
    let patterns: [String]

    init(_ patterns: String..., name: String = "patterns") {
        self.patterns = patterns
        self.name = name
    }

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        patterns.contains { AccessPlan.Pattern($0).matches(request.resource) }
            ? .allow : .deny(reason: "unlisted")
    }

    func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .exact(allowing: .anyOf(patterns.map(AccessPlan.Residual.matching)))
    }
}

/// A gatekeeper of its own that cannot plan (the protocol's default).
private struct CustomPolicy: AccessPolicy {
    let name = "custom"
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        request.resource.hasSuffix(".txt") ? .allow : .deny(reason: "not text")
    }
}

/// A gatekeeper whose planning throws, though its decisions allow.
private struct UnplannablePolicy: AccessPolicy {
    let name = "unplannable"
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision { .allow }
    func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part { throw GateFailure() }
}

/// A listing that ignores the plan it is given and lists every name, and records the plan.
private struct CarelessListing: FilteredListing, ResourceLoading {
    let names: [String]
    let plans = LockedState<[AccessPlan]>([])

    func load(_ key: String) async throws -> String { key }

    func keys(under prefix: String) async throws -> [String] { names }

    func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [String] {
        plans.withLock { $0.append(plan) }
        return names
    }
}

@Suite("AccessPlan")
struct AccessPlanTests {
    static let names = [
        "docs/a", "docs/b.txt", "docs/secret/x", "public/p.txt", "other", "../docs/a", "/docs/a", "docs//a",
        "docs/a\u{0}", "cafe\u{301}/docs",
    ]

    @Test func aPlanPermitsWhatTheGateAllowsAndNothingTheIdentityRuleRefuses() async throws {
        let gate = AccessGate(gatekeepers: [
            PatternPolicy("docs/*", "cafe\u{301}/*"), Not(PatternPolicy("docs/secret/*")),
        ])
        let plan = try await gate.plan(subject: "alice", action: "read")
        #expect(plan.isExact)
        for name in Self.names {
            let allowed = try await gate.decide(AccessRequest(subject: "alice", resource: name)).isAllowed
            #expect(plan.permits(name) == allowed, "\(name)")
        }
        #expect(Self.names.filter(plan.predicate) == ["docs/a", "docs/b.txt"])
    }

    @Test func aCustomGatekeeperLeavesAPartThatChecksEachNameNamingIt() async throws {
        let plan = try await AccessGate(gatekeepers: [PatternPolicy("docs/*"), CustomPolicy()])
            .plan(subject: "alice", action: "read")
        #expect(plan.unplanned == ["custom"])
        #expect(!plan.isExact)
        // Fail closed on its own; a superset for a listing to check name by name.
        #expect(!plan.permits("docs/b.txt"))
        #expect(plan.candidates.permits("docs/b.txt") && plan.candidates.permits("docs/a"))
        #expect(!plan.candidates.permits("public/p.txt"))
        #expect(plan.sql(column: "name") == "(1 = 0)")
        #expect(
            plan.candidates.sql(column: "name") == "(instr(`name`, char(0)) = 0 AND `name` GLOB 'docs/*')")
    }

    @Test func aGatekeeperWhosePlanningThrowsFailsClosedEvenUnderNot() async throws {
        for gatekeepers: [any AccessPolicy] in [[UnplannablePolicy()], [Not(UnplannablePolicy())]] {
            let plan = try await AccessGate(gatekeepers: gatekeepers).plan(subject: "alice", action: "read")
            #expect(plan.residual == .nothing)
        }
        // A member that allows first decides before the failing one is asked, as in `decide`.
        let plan = try await AccessGate(gatekeepers: [AnyOf(PatternPolicy("docs/*"), UnplannablePolicy())])
            .plan(subject: "alice", action: "read")
        #expect(plan.permits("docs/a") && !plan.permits("other"))
    }

    @Test func aGateWithNoGatekeepersOrABrokenSubjectPlansNothing() async throws {
        #expect(
            try await AccessGate(gatekeepers: []).plan(subject: "alice", action: "read").residual == .nothing)
        let gate = AccessGate(gatekeepers: [PatternPolicy("*")])
        #expect(try await gate.plan(subject: "al\u{7}ice", action: "read").residual == .nothing)
        #expect(try await gate.plan(subject: nil, action: "read").residual == .everything)
    }

    @Test func theSQLEscapesGlobWildcardsQuotesAndIdentifiers() {
        let plan = AccessPlan(
            .allOf([
                .anyOf([.matching(#"it's_100%[?]\*"#), .pattern(AccessPlan.Pattern(runs: ["a*b"]))]),
                .not(.matching("x*")),
            ]))
        #expect(
            plan.sql(column: "t.na`me")
                == #"(instr(`t`.`na``me`, char(0)) = 0 AND ((`t`.`na``me` GLOB 'it''s_100%[[][?]]\*' OR `t`.`na``me` = 'a*b') AND NOT (`t`.`na``me` GLOB 'x*')))"#
        )
        #expect(AccessPlan(.everything).sql(column: "r") == #"(instr(`r`, char(0)) = 0)"#)
    }

    @Test func prefixesAreTheLiteralStartsOfWhatMayBeAllowed() {
        let plan = AccessPlan(
            .allOf([
                .anyOf([.matching("docs/*"), .matching("docs/2026/*"), .matching("pub*")]),
                .not(.matching("*x")),
            ]))
        #expect(plan.prefixes == ["docs/", "pub"])
        #expect(plan.mayPermitNames(under: "docs") && plan.mayPermitNames(under: "docs/2026"))
        #expect(plan.mayPermitNames(under: "public") && plan.mayPermitNames(under: ""))
        #expect(!plan.mayPermitNames(under: "doc") && !plan.mayPermitNames(under: "other"))
        #expect(AccessPlan(.not(.matching("a*"))).prefixes == [""])
        #expect(AccessPlan(.nothing).prefixes == [])
    }

    @Test func aBaseThatFiltersWronglyCannotLeakANameTheGateDenies() async throws {
        let base = CarelessListing(names: ["docs/a", "docs/secret/x", "other", "../docs/a"])
        let proxy = AccessProxy(base, gatekeepers: [PatternPolicy("docs/*", "", name: "docs")])
        let listed = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await proxy.keys(under: "")
        }
        #expect(listed == ["docs/a", "docs/secret/x"])
        let handed = try #require(base.plans.withLock { $0.first })
        #expect(handed.permits("docs/a") && !handed.permits("other"))
    }

    @Test func aListingHandsABaseThatFiltersTheCandidatesOfAnInexactPlan() async throws {
        let base = CarelessListing(names: ["docs/a", "docs/b.txt"])
        let proxy = AccessProxy(base, gatekeepers: [AnyOf(PatternPolicy("docs/*", ""), CustomPolicy())])
        #expect(try await proxy.keys(under: "") == ["docs/a", "docs/b.txt"])
        let handed = try #require(base.plans.withLock { $0.first })
        #expect(handed.isExact && handed.permits("x.txt"))
    }

    @Test func aCancelledTaskGetsCancellationErrorInsteadOfAPlan() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await AccessGate(gatekeepers: [PatternPolicy("*")]).plan(subject: "a", action: "read")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
