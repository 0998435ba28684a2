import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseSQLite

/// A plan's SQL is exact in SQLite as it ships: no pragma, names that differ only in case or hold
/// `%`, `_`, `'`, `\`, `"`, `*`, `?`, `[` and `]`, thousands of names and patterns, and a column
/// the table lacks fails the query.
@Suite("A plan's SQL in SQLite as shipped")
struct PlanSQLExactnessTests {
    static let pieces = ["a", "A", "b", "%", "_", "'", "\\", "\"", "*", "?", "[", "]", "/", "é"]

    /// A table `t(name)` in a fresh in-memory database, holding `names`.
    static func table(_ names: [String]) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (name TEXT PRIMARY KEY)")
        for name in names { try database.execute("INSERT INTO t (name) VALUES (?)", [.text(name)]) }
        return database
    }

    static func selected(_ plan: AccessPlan, in database: SQLiteDatabase) throws -> Set<String> {
        let rows = try database.execute("SELECT name FROM t WHERE \(plan.sql(column: "name"))")
        return Set(rows.map { String(decoding: $0[0], as: UTF8.self) })
    }

    @Test func randomPlansSelectExactlyTheNamesTheyPermit() throws {
        var generator = SplitMix64(seed: 37)
        var names = Set<String>()
        // Names a loader may hold: those `ResourceIdentity.path` accepts, as SQLiteLoader's keys.
        while names.count < 400 {
            let length = Int.random(in: 1...4, using: &generator)
            let name = (0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            if ResourceIdentity.path.violation(in: name) == nil { names.insert(name) }
        }
        let database = try Self.table(Array(names))
        var pairs = 0
        for _ in 0..<300 {
            func pattern() -> AccessPlan.Residual {
                let length = Int.random(in: 1...4, using: &generator)
                return .matching(
                    (0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined())
            }
            let anyOf = AccessPlan.Residual.anyOf(
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in pattern() })
            let plan = AccessPlan(Bool.random(using: &generator) ? .allOf([anyOf, .not(pattern())]) : anyOf)
            let expected = Set(names.filter { plan.permits($0) })
            #expect(try Self.selected(plan, in: database) == expected, "\(plan.sql(column: "name"))")
            pairs += names.count
        }
        #expect(pairs >= 100_000)
    }

    @Test func rowsHoldingNULAreNeverSelectedAndPatternsHoldingNULMatchNothing() throws {
        var generator = SplitMix64(seed: 38)
        let pieces = RandomPlans.pieces + ["\0"]
        // Names that keep the identity rule but for their NUL, which `GLOB` reads only up to.
        let names = RandomPlans.names(count: 400, pieces: pieces, using: &generator) {
            ResourceIdentity.path.violation(in: $0.replacingOccurrences(of: "\0", with: "x")) == nil
        }
        #expect(names.filter { $0.utf8.contains(0) }.count > 50)
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (name TEXT PRIMARY KEY)")
        for name in names {
            // Bound as bytes, since a bound C string would end at the NUL.
            try database.execute("INSERT INTO t (name) VALUES (CAST(? AS TEXT))", [.blob(Data(name.utf8))])
        }
        for _ in 0..<300 {
            let plan = RandomPlans.plan(pieces: pieces, using: &generator)
            let expected = Set(names.filter { plan.permits($0) })
            #expect(try Self.selected(plan, in: database) == expected, "\(plan.sql(column: "name"))")
        }
    }

    @Test func namesThatDifferOnlyInCaseAreNeverSelectedTogether() throws {
        let database = try Self.table(["public/p1", "Public/p1", "PUBLIC/P1"])
        #expect(try Self.selected(AccessPlan(.matching("public/*")), in: database) == ["public/p1"])
        #expect(try Self.selected(AccessPlan(.matching("public/p1")), in: database) == ["public/p1"])
    }

    @Test func tenThousandNamesAndTwoThousandPatternsStayWithinSQLitesLimits() throws {
        let names = (0..<10_000).map { "docs/\($0)" }
        let database = try Self.table(names + ["secret/k"])
        let exact = AccessPlan(.anyOf(names.map { .matching($0) }))
        #expect(try Self.selected(exact, in: database) == Set(names))
        let patterns = AccessPlan(.anyOf((0..<2_000).map { .matching("docs/\($0)*") }))
        // Each name starts with some docs/K, K < 2,000.
        #expect(try Self.selected(patterns, in: database) == Set(names))
        #expect(try !Self.selected(patterns, in: database).contains("secret/k"))
    }

    @Test func aColumnTheTableLacksFailsTheQueryInsteadOfSelectingEveryRow() throws {
        let database = try Self.table(["secret/key", "docs/a"])
        let plan = AccessPlan(.allOf([.everything, .not(.matching("secret/*"))]))
        for column in ["resourc", "nam e", "t.nam"] {
            #expect(throws: SQLiteLoaderError.self) {
                try database.execute("SELECT name FROM t WHERE \(plan.sql(column: column))")
            }
        }
    }

    @Test func aURIOrAnEmptyPathIsRefusedBeforeSQLiteSeesIt() throws {
        for path in ["file:/etc/passwd?mode=ro", "FILE:x.sqlite", "", "a\0b"] {
            #expect(throws: SQLiteLoaderError.self) { try SQLiteLoader(path: path) }
        }
        _ = try SQLiteLoader(path: ":memory:")
    }
}
