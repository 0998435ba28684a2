import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A plan's SQL is exact in a real PostgreSQL server on its default settings: names that differ
/// only in case or hold `%`, `_`, `'`, `\`, `"`, patterns holding NUL, 10,000 names and 2,000
/// patterns, and a column the table lacks (or spelt in another case) fails the query. Runs where
/// `GATEHOUSE_POSTGRES_URL` names a server (`.ci/start-postgres`); skipped, never passed, elsewhere.
@Suite(
    "A plan's SQL in PostgreSQL on its default settings",
    .enabled(if: PostgreSQLServer.isAvailable, Comment(rawValue: PostgreSQLServer.howToEnable)))
struct PlanSQLPostgreSQLTests {
    /// A script that fills a temporary table `t(id, name)` with `names` (written in hex, so that
    /// the table does not depend on the quoting under test) and then selects, for each plan in
    /// turn, `K ID` for its rows.
    static func script(names: [String], plans: [AccessPlan], column: String = "name") -> String {
        var lines = ["CREATE TEMP TABLE t (id integer PRIMARY KEY, name text NOT NULL);"]
        for start in stride(from: 0, to: names.count, by: 1_000) {
            let rows = names[start..<min(start + 1_000, names.count)].enumerated().map { offset, name in
                let hex = name.utf8.map { String(format: "%02x", $0) }.joined()
                return "(\(start + offset), convert_from(decode('\(hex)', 'hex'), 'UTF8'))"
            }
            lines.append("INSERT INTO t (id, name) VALUES \(rows.joined(separator: ", "));")
        }
        for (index, plan) in plans.enumerated() {
            lines.append(
                "SELECT \(index), id FROM t WHERE \(plan.sql(column: column, dialect: .postgresql));")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The names each plan selects, in order.
    static func selected(_ plans: [AccessPlan], in names: [String]) async throws -> [Set<String>] {
        let run = try await PostgreSQLServer.run(script(names: names, plans: plans))
        try #require(run.status == 0, "psql: \(run.errors)")
        var selected = Array(repeating: Set<String>(), count: plans.count)
        for row in run.rows {
            let fields = row.split(separator: " ")
            let (plan, id) = try (#require(Int(fields[0])), #require(Int(fields[1])))
            selected[plan].insert(names[id])
        }
        return selected
    }

    @Test func randomPlansSelectExactlyTheNamesTheyPermit() async throws {
        var generator = SplitMix64(seed: 37)
        let names = RandomPlans.names(count: 400, using: &generator)
        // Patterns may hold NUL, which no PostgreSQL text can: such a part matches nothing.
        let plans = (0..<300).map { _ in
            RandomPlans.plan(pieces: RandomPlans.pieces + ["\0"], using: &generator)
        }
        let selected = try await Self.selected(plans, in: names)
        var pairs = 0
        for (plan, rows) in zip(plans, selected) {
            #expect(
                rows == Set(names.filter(plan.permits)), "\(plan.sql(column: "name", dialect: .postgresql))")
            pairs += names.count
        }
        #expect(pairs >= 100_000)
    }

    @Test func namesThatDifferOnlyInCaseAreNeverSelectedTogether() async throws {
        let names = ["public/p1", "Public/p1", "PUBLIC/P1", "public/P1"]
        let plans = [AccessPlan(.matching("public/*")), AccessPlan(.matching("public/p1"))]
        #expect(try await Self.selected(plans, in: names) == [["public/p1", "public/P1"], ["public/p1"]])
    }

    @Test func aBackslashNeverEndsALiteralEvenWithStandardConformingStringsOff() async throws {
        let names = [#"x\"#, #"x\' OR 1=1 --"#, "x", "secret"]
        let plans = [
            AccessPlan(.anyOf([.matching(#"x\' OR 1=1 --"#), .matching(#"x\"#)])),
            AccessPlan(.matching(#"x\*"#)),
        ]
        let body = plans.enumerated().map { index, plan in
            "SELECT \(index), name FROM t WHERE \(plan.sql(column: "name", dialect: .postgresql));"
        }
        for setting in ["on", "off"] {
            let rows = names.map {
                "(E'\($0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''"))')"
            }
            let run = try await PostgreSQLServer.run(
                """
                CREATE TEMP TABLE t (name text);
                INSERT INTO t VALUES \(rows.joined(separator: ", "));
                SET standard_conforming_strings = \(setting);
                \(body.joined(separator: "\n"))

                """)
            try #require(run.status == 0, "psql: \(run.errors)")
            #expect(
                Set(run.rows) == [
                    "0 " + #"x\"#, "0 " + #"x\' OR 1=1 --"#, "1 " + #"x\"#, "1 " + #"x\' OR 1=1 --"#,
                ], "\(setting)")
        }
    }

    @Test func tenThousandNamesAndTwoThousandPatternsStayWithinPostgreSQLsLimits() async throws {
        let names = (0..<10_000).map { "docs/\($0)" } + ["secret/k"]
        let exact = AccessPlan(.anyOf((0..<10_000).map { .matching("docs/\($0)") }))
        let patterns = AccessPlan(.anyOf((0..<2_000).map { .matching("docs/\($0)*") }))
        let selected = try await Self.selected([exact, patterns], in: names)
        #expect(selected == [Set(names.dropLast()), Set(names.dropLast())])
    }

    @Test func aColumnTheTableLacksFailsTheQueryInsteadOfSelectingEveryRow() async throws {
        let plan = AccessPlan(.allOf([.everything, .not(.matching("secret/*"))]))
        // A quoted name keeps its case: `Name` is not the column `name`.
        for column in ["resourc", "Name", "t.nam", "nam e", ""] {
            let run = try await PostgreSQLServer.run(
                Self.script(names: ["secret/key", "docs/a"], plans: [plan], column: column))
            #expect(run.status != 0, "\(column)")
            #expect(run.rows.isEmpty, "\(column): \(run.rows)")
            #expect(run.errors.contains("ERROR"), "\(column): \(run.errors)")
        }
    }
}

/// In CI (`GATEHOUSE_REQUIRE_POSTGRES=1`, set by .ci/run after it starts a server) the PostgreSQL
/// tests must run: a server that cannot be found fails here instead of skipping them.
@Test(.enabled(if: PostgreSQLServer.isRequired, "runs when GATEHOUSE_REQUIRE_POSTGRES=1"))
func thePostgreSQLTestsRunWhereTheyAreRequired() {
    #expect(PostgreSQLServer.isAvailable, "GATEHOUSE_REQUIRE_POSTGRES=1 but \(PostgreSQLServer.howToEnable)")
}
