import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A plan's attribute predicates read their columns in a real PostgreSQL server on its default
/// settings: the SQL selects exactly the rows `permits(_:attributes:)` permits, a `NULL` owner
/// counting as none, `not` included. Runs where `GATEHOUSE_POSTGRES_URL` names a server.
@Suite(
    "A plan's SQL with attribute columns in PostgreSQL",
    .enabled(if: PostgreSQLServer.isAvailable, Comment(rawValue: PostgreSQLServer.howToEnable)))
struct PlanSQLAttributeColumnPostgreSQLTests {
    static let owners: [String?] = ["alice", "Alice", "bob", "it's", "a\"b", "x\\y", nil]

    static func hex(_ text: String) -> String {
        "convert_from(decode('\(text.utf8.map { String(format: "%02x", $0) }.joined())', 'hex'), 'UTF8')"
    }

    @Test func randomPlansWithOwnerPredicatesSelectExactlyThePermittedRows() async throws {
        var generator = SplitMix64(seed: 3_738)
        let names = RandomPlans.names(count: 300, using: &generator)
        let rows = names.map { ($0, Self.owners.randomElement(using: &generator)!) }
        var lines = ["CREATE TEMP TABLE t (id integer PRIMARY KEY, name text NOT NULL, owner_id text);"]
        for (index, (name, owner)) in rows.enumerated() {
            lines.append(
                "INSERT INTO t VALUES (\(index), \(Self.hex(name)), \(owner.map(Self.hex) ?? "NULL"));")
        }
        var plans: [AccessPlan] = []
        for _ in 0..<350 {
            func part() -> AccessPlan.Residual {
                if Bool.random(using: &generator) {
                    return .attribute(
                        "owner", equals: Self.owners.compactMap { $0 }.randomElement(using: &generator)!)
                }
                return RandomPlans.plan(using: &generator).residual
            }
            let anyOf = AccessPlan.Residual.anyOf([.allOf([part(), part()]), part()])
            plans.append(
                AccessPlan(Bool.random(using: &generator) ? .not(anyOf) : .allOf([anyOf, .not(part())])))
        }
        for (index, plan) in plans.enumerated() {
            let sql = plan.sql(column: "name", attributeColumns: ["owner": "owner_id"], dialect: .postgresql)
            lines.append("SELECT \(index), id FROM t WHERE \(sql);")
        }
        let run = try await PostgreSQLServer.run(lines.joined(separator: "\n") + "\n")
        try #require(run.status == 0, "psql: \(run.errors)")
        var selected = Array(repeating: Set<String>(), count: plans.count)
        for row in run.rows {
            let fields = row.split(separator: " ")
            let (plan, id) = try (#require(Int(fields[0])), #require(Int(fields[1])))
            selected[plan].insert(rows[id].0)
        }
        var pairs = 0
        for (plan, chosen) in zip(plans, selected) {
            let expected = Set(
                rows.filter { plan.permits($0.0, attributes: $0.1.map { ["owner": $0] } ?? [:]) }.map(\.0))
            #expect(chosen == expected, "\(plan.residual)")
            pairs += rows.count
        }
        #expect(pairs >= 100_000)
    }
}
