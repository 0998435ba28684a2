import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

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
                let plan = try await gate.plan(
                    subject: caller.subject, action: AccessAction(rawValue: caller.action),
                    attributes: caller.attributes)
                #expect(plan.isExact)
                for resource in universe.resources {
                    let request = AccessRequest(
                        subject: caller.subject, action: caller.action, resource: resource,
                        attributes: caller.attributes)
                    let allowed = try await !gate.permitted([request]).isEmpty
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
}

/// Random trees of the built-in gatekeepers, each planned and decided name by name.
@Suite("Plans of the built-in gatekeepers agree with decisions")
struct BuiltInPlanAgreementTests {
    static let instant = Date(timeIntervalSince1970: 1_767_000_000)  // a Monday, late December 2025
    static let names = [
        "docs/a", "docs/secret/b", "public/x", "users/alice/n", "users/bob/n", "other", "",
        "../docs/a", "docs/a\u{1}", "cafe\u{301}/docs",
    ]

    /// A random gatekeeper, nested `depth` deep at most.
    static func gatekeeper(_ random: inout SplitMix64, depth: Int) throws -> any AccessPolicy {
        let missing = URL(fileURLWithPath: "/nonexistent/gatehouse-plan.rules")
        switch Int.random(in: 0..<(depth > 0 ? 10 : 7), using: &random) {
        case 0: return AlwaysAllow()
        case 1: return AlwaysDeny()
        case 2:
            return try AllowList(
                resources: [["docs/*"], ["users/alice/*", "public/*"], ["*"]].randomElement(using: &random)!,
                subjects: [nil, ["alice"], ["*"], ["b*"]].randomElement(using: &random)!)
        case 3:
            return try TimeWindow(
                days: [[.mon], [.tue]].randomElement(using: &random)!,
                from: try LocalTime(hour: 0, minute: 0),
                to: try LocalTime(hour: 23, minute: 59), timeZone: "UTC", now: { instant })
        case 4: return FilePolicy(url: missing)
        case 5: return AllOf([])
        case 6: return try AllowList(subjects: ["alice"])
        case 7: return Not(try gatekeeper(&random, depth: depth - 1))
        case 8: return AllOf(try members(&random, depth: depth))
        default: return AnyOf(try members(&random, depth: depth))
        }
    }

    /// One to three random members, `depth - 1` deep at most.
    static func members(_ random: inout SplitMix64, depth: Int) throws -> [any AccessPolicy] {
        var members: [any AccessPolicy] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            members.append(try gatekeeper(&random, depth: depth - 1))
        }
        return members
    }

    @Test func aPlanOfRandomTreesOfGatekeepersAgreesWithEveryDecision() async throws {
        var random = SplitMix64(seed: 28)
        var disagreements: [String] = []
        for _ in 0..<300 {
            let gate = AccessGate(
                gatekeepers: try (0..<2).map { _ in try Self.gatekeeper(&random, depth: 3) })
            for subject in [nil, "alice", "bob"] {
                let plan = try await gate.plan(subject: subject, action: "read", at: Self.instant)
                #expect(plan.isExact)
                for name in Self.names {
                    let allowed = try await gate.decide(AccessRequest(subject: subject, resource: name))
                        .isAllowed
                    if allowed != plan.permits(name) && disagreements.count < 5 {
                        disagreements.append(
                            "\(gate.gatekeepers.map(\.name)) \(subject ?? "-") \(name): \(plan.residual)")
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test func aTimeWindowIsFoldedAtTheInstantGivenOrAtItsOwnClock() async throws {
        let window = try TimeWindow(
            days: [.mon], from: try LocalTime(hour: 9, minute: 0), to: try LocalTime(hour: 17, minute: 0),
            timeZone: "UTC", now: { Self.instant })
        let gate = AccessGate(gatekeepers: [window])
        // Monday 09:20 UTC, then 17:20.
        #expect(try await gate.plan(subject: "a", action: "read", at: Self.instant).residual == .everything)
        let evening = Self.instant.addingTimeInterval(8 * 3600)
        #expect(try await gate.plan(subject: "a", action: "read", at: evening).residual == .nothing)
        #expect(try await gate.plan(subject: "a", action: "read").residual == .everything)
    }
}

@Suite("A rules file's plan")
struct FilePolicyPlanTests {
    @Test func aFilePolicyPlansItsCurrentRulesAndAMissingFilePermitsNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let url = directory.file("docs.rules")
        try Data("group editors alice\nallow @editors read docs/*\ndeny * read docs/secret/*\n".utf8).write(
            to: url)
        let gate = AccessGate(gatekeepers: [FilePolicy(url: url)])
        let plan = try await gate.plan(subject: "alice", action: "read")
        #expect(plan.isExact)
        #expect(
            plan.sql(column: "r")
                == "(instr(`r`, char(0)) = 0 AND (`r` GLOB 'docs/*' AND NOT (`r` GLOB 'docs/secret/*')))")
        #expect(try await gate.plan(subject: "bob", action: "read").residual == .nothing)
        try FileManager.default.removeItem(at: url)
        #expect(try await gate.plan(subject: "alice", action: "read").residual == .nothing)
    }
}
