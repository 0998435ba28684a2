import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseSQLite
import GatehouseTestSupport
import Testing

@Suite("SQLiteLoader")
struct SQLiteLoaderTests {
    static let awkward = [
        "docs/100%.txt", "docs/a_b", "docs/it's", "docs/back\\slash", "docs/x", "docsx/y", "top",
    ]

    @Test func aTableStoresLoadsRemovesAndListsNamesThatHoldSQLCharacters() async throws {
        let table = try SQLiteLoader(path: ":memory:")
        for name in Self.awkward {
            try await table.store(Data(name.utf8), for: name)
        }
        #expect(try await table.load("docs/it's") == Data("docs/it's".utf8))
        #expect(
            try await table.keys(under: "docs") == [
                "docs/100%.txt", "docs/a_b", "docs/back\\slash", "docs/it's", "docs/x",
            ])
        #expect(try await table.keys(under: "").count == Self.awkward.count)
        try await table.store(Data("new".utf8), for: "docs/x")
        #expect(try await table.load("docs/x") == Data("new".utf8))
        try await table.remove("docs/x")
        await #expect(throws: SQLiteLoaderError.notFound(key: "docs/x")) { try await table.load("docs/x") }
        await #expect(throws: SQLiteLoaderError.notFound(key: "docs/x")) { try await table.remove("docs/x") }
    }

    @Test func aKeyThatBreaksTheIdentityRuleIsNeverStored() async throws {
        let table = try SQLiteLoader(path: ":memory:")
        for key in ["/etc/passwd", "docs/../x", "docs/a\u{7}", "cafe\u{301}", ""] {
            await #expect(throws: SQLiteLoaderError.self) { try await table.store(Data(), for: key) }
        }
        #expect(try await table.keys(under: "").isEmpty)
    }

    @Test func aPlanSelectsOnlyMatchingRowsEvenWhereLIKEWouldIgnoreCaseOrWildcards() async throws {
        let table = try SQLiteLoader(path: ":memory:")
        for name in Self.awkward + ["DOCS/x", "docs/100x.txt", "docs/aXb", "docs/it''s"] {
            try await table.store(Data(), for: name)
        }
        let plan = AccessPlan(
            .anyOf([
                .matching("docs/100%*"), .matching("docs/a_b"), .matching("docs/it's"),
                .matching("docs/back\\*"),
            ]))
        #expect(
            try await table.keys(under: "", permittedBy: plan) == [
                "docs/100%.txt", "docs/a_b", "docs/back\\slash", "docs/it's",
            ])
    }

    /// The plan's SQL, run by SQLite over the names of a random universe that keep the identity
    /// rule, selects exactly the names the gate allows.
    @Test
    func thePlansSQLSelectsExactlyThePermittedRowsOfARandomUniverse() async throws {
        var rowsChecked = 0
        for seed in UInt64(0)..<10 {
            let universe = PlanUniverse(seed: seed)
            let table = try SQLiteLoader(path: ":memory:")
            let stored = universe.resources.filter { ResourceIdentity.path.violation(in: $0) == nil }
            for name in stored {
                try await table.store(Data(), for: name)
            }
            let gate = AccessGate(gatekeepers: [try RulesPolicy(text: universe.text, name: "generated")])
            for caller in universe.callers {
                let plan = try await gate.plan(
                    subject: caller.subject, action: AccessAction(rawValue: caller.action),
                    attributes: caller.attributes)
                var allowed: [String] = []
                for name in stored {
                    let request = AccessRequest(
                        subject: caller.subject, action: caller.action, resource: name,
                        attributes: caller.attributes)
                    if try await !gate.permitted([request]).isEmpty { allowed.append(name) }
                }
                let selected = try await table.keys(under: "", permittedBy: plan)
                #expect(selected == allowed, "seed \(seed), \(caller): \(plan.sql(column: "name"))")
                rowsChecked += stored.count
            }
        }
        #expect(rowsChecked >= 10_000)
    }

    @Test func aListingThroughTheProxyDecidesOnlyTheRowsThePlanSelects() async throws {
        let table = try SQLiteLoader(path: ":memory:")
        for folder in 0..<20 {
            for file in 0..<10 {
                try await table.store(Data(), for: "f\(folder)/\(file).txt")
            }
        }
        let observer = RecordingObserver()
        let proxy = AccessProxy(
            table, gatekeepers: [try AllowList(resources: ["f7/*", ""]), AlwaysAllow()], observer: observer)
        let listed = try await proxy.keys(under: "")
        #expect(listed == (0..<10).map { "f7/\($0).txt" })
        // One decision for the folder, one for each row the plan selected: not 200.
        #expect(observer.records.count == 11)
    }
}
