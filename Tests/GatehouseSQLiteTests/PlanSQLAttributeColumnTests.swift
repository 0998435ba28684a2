import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseSQLite

/// A plan's attribute predicates read their columns: in SQLite as shipped, the SQL selects
/// exactly the rows `permits(_:attributes:)` permits, a `NULL` owner counting as none, `not`
/// included; an attribute with no column is a part to check each name, named.
@Suite("A plan's SQL with attribute columns in SQLite as shipped")
struct PlanSQLAttributeColumnTests {
    static let pieces = ["a", "A", "%", "_", "'", "\\", "\"", "/", "é"]
    static let owners: [String?] = ["alice", "Alice", "bob", "it's", "a\"b", "x\\y", nil]

    @Test func randomPlansWithOwnerPredicatesSelectExactlyThePermittedRows() throws {
        var generator = SplitMix64(seed: 3_737)
        var names = Set<String>()
        while names.count < 300 {
            let length = Int.random(in: 1...4, using: &generator)
            let name = (0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            if ResourceIdentity.path.violation(in: name) == nil { names.insert(name) }
        }
        let rows = names.sorted().map { ($0, Self.owners.randomElement(using: &generator)!) }
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (name TEXT PRIMARY KEY, owner_id TEXT)")
        for (name, owner) in rows {
            if let owner {
                try database.execute(
                    "INSERT INTO t (name, owner_id) VALUES (?, ?)", [.text(name), .text(owner)])
            } else {
                try database.execute("INSERT INTO t (name, owner_id) VALUES (?, NULL)", [.text(name)])
            }
        }
        var pairs = 0
        for _ in 0..<350 {
            func part() -> AccessPlan.Residual {
                if Bool.random(using: &generator) {
                    let owner = Self.owners.compactMap { $0 }.randomElement(using: &generator)!
                    return .attribute("owner", equals: owner)
                }
                let length = Int.random(in: 1...3, using: &generator)
                return .matching(
                    (0..<length).map { _ in (Self.pieces + ["*"]).randomElement(using: &generator)! }.joined()
                )
            }
            let allOf = AccessPlan.Residual.allOf([part(), part()])
            let anyOf = AccessPlan.Residual.anyOf([allOf, part()])
            let plan = AccessPlan(
                Bool.random(using: &generator) ? .not(anyOf) : .allOf([anyOf, .not(part())]))
            let sql = plan.sql(column: "name", attributeColumns: ["owner": "owner_id"], dialect: .sqlite)
            let selected = Set(
                try database.execute("SELECT name FROM t WHERE \(sql)").map {
                    String(decoding: $0[0], as: UTF8.self)
                })
            let expected = Set(
                rows.filter { plan.permits($0.0, attributes: $0.1.map { ["owner": $0] } ?? [:]) }.map(\.0))
            #expect(selected == expected, "\(plan.residual): \(sql)")
            pairs += rows.count
        }
        #expect(pairs >= 100_000)
    }

    @Test func anAttributeWithNoColumnIsNamedAndItsPartIsNeverSelected() throws {
        let plan = AccessPlan(.allOf([.matching("docs/*"), .attribute("owner", equals: "alice")]))
        #expect(plan.attributesWithoutColumn([:]) == ["owner"])
        #expect(plan.attributesWithoutColumn(["owner": "owner_id"]).isEmpty)
        #expect(
            plan.sql(column: "name", dialect: .sqlite)
                == plan.sql(column: "name", attributeColumns: [:], dialect: .sqlite))
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (name TEXT PRIMARY KEY, owner_id TEXT)")
        try database.execute("INSERT INTO t (name, owner_id) VALUES ('docs/a', 'alice')")
        let inverted = AccessPlan(.not(plan.residual))
        for each in [plan, inverted] {
            let rows = try database.execute("SELECT name FROM t WHERE \(each.sql(column: "name"))")
            #expect(rows.isEmpty, "\(each.residual)")
        }
        let rows = try database.execute(
            "SELECT name FROM t WHERE \(plan.sql(column: "name", attributeColumns: ["owner": "owner_id"], dialect: .sqlite))"
        )
        #expect(rows.count == 1)
    }

    @Test func aMisspeltAttributeColumnFailsTheQuery() throws {
        let plan = AccessPlan(.not(.attribute("owner", equals: "alice")))
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (name TEXT PRIMARY KEY, owner_id TEXT)")
        try database.execute("INSERT INTO t (name, owner_id) VALUES ('docs/a', 'bob')")
        let sql = plan.sql(column: "name", attributeColumns: ["owner": "owner_di"], dialect: .sqlite)
        #expect(throws: (any Error).self) { try database.execute("SELECT name FROM t WHERE \(sql)") }
    }
}
