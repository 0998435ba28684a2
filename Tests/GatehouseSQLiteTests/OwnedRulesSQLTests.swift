import Foundation
import GatehousePolicies
import GatehouseTestSupport
import Testing

@testable import GatehouseCore
@testable import GatehouseSQLite

/// Random rule sets with owners, groups, placeholders, conditions, denies and wildcards, over
/// universes whose names differ in case and hold `%`, `_`, `'`, `\` and `"`, each with an owner
/// or none: the plan's SQL with an owner column selects exactly the rows the gate allows (each
/// decided with the resource's own owner, the caller's claim dropped), in SQLite as shipped and
/// in PostgreSQL on its defaults. Where the plan leaves a part to check each name, its SQL
/// selects only allowed rows.
@Suite("The SQL of plans of owned rule sets")
struct OwnedRulesSQLTests {
    /// One universe: its rows (name, owner) and, for each caller, its plan and the names the
    /// gate allows.
    struct Universe {
        var rows: [(name: String, owner: String?)]
        var callers: [(plan: AccessPlan, allowed: Set<String>, exact: Bool, caller: String)]
    }

    static func universe(seed: UInt64) async throws -> Universe {
        let universe = PlanUniverse(seed: seed, resourceCount: 220, callerCount: 24, owners: true)
        var generator = SplitMix64(seed: seed ^ 0x0DD5)
        var rows: [String: String?] = [:]
        let ownerValues = Set(universe.owners.values).sorted()
        for name in universe.resources where ResourceIdentity.path.violation(in: name) == nil {
            rows[name] = universe.owners[name]
            // The same name in another case, and with a double quote: other resources.
            for variant in [name.uppercased(), name + "\"q", name.prefix(1).uppercased() + name.dropFirst()]
            where ResourceIdentity.path.violation(in: variant) == nil && rows[variant] == nil {
                rows[variant] =
                    Bool.random(using: &generator) ? ownerValues.randomElement(using: &generator) : nil
            }
        }
        let owners = rows
        let gate = AccessGate(
            gatekeepers: [try RulesPolicy(text: universe.text, name: "generated")],
            resourceAttributes: ResourceAttributes(["owner"]) { name in
                owners[name].flatMap { $0 }.map { ["owner": $0] } ?? [:]
            })
        let sorted = rows.keys.sorted()
        var callers: [(AccessPlan, Set<String>, Bool, String)] = []
        for caller in universe.callers {
            let action = AccessAction(rawValue: caller.action)
            let plan = try await gate.plan(
                subject: caller.subject, action: action, attributes: caller.attributes)
            let allowed = try await gate.permitted(
                sorted.map {
                    AccessRequest(
                        subject: caller.subject, action: action, resource: $0, attributes: caller.attributes)
                })
            callers.append(
                (plan, Set(allowed.map(\.resource)), plan.residual.gatekeepersToAsk.isEmpty, "\(caller)"))
        }
        return Universe(rows: sorted.map { ($0, owners[$0].flatMap { $0 }) }, callers: callers)
    }

    /// Checks what `selected` (one set per caller) holds against the gate.
    static func check(_ universe: Universe, selected: [Set<String>], seed: UInt64) -> (pairs: Int, exact: Int)
    {
        var pairs = 0
        var exact = 0
        for (caller, chosen) in zip(universe.callers, selected) {
            if caller.exact {
                #expect(chosen == caller.allowed, "seed \(seed), \(caller.caller): \(caller.plan.residual)")
                exact += 1
            } else {
                #expect(chosen.isSubset(of: caller.allowed), "seed \(seed), \(caller.caller)")
            }
            pairs += universe.rows.count
        }
        return (pairs, exact)
    }

    @Test(arguments: UInt64(0)..<8)
    func inSQLiteAsShipped(seed: UInt64) async throws {
        let universe = try await Self.universe(seed: seed)
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (name TEXT PRIMARY KEY, owner_id TEXT)")
        for row in universe.rows {
            try database.execute(
                "INSERT INTO t (name, owner_id) VALUES (?, ?)",
                [.text(row.name), row.owner.map { .text($0) } ?? .null])
        }
        let selected = try universe.callers.map { caller in
            let sql = caller.plan.sql(
                column: "name", attributeColumns: ["owner": "owner_id"], dialect: .sqlite)
            return Set(
                try database.execute("SELECT name FROM t WHERE \(sql)").map {
                    String(decoding: $0[0], as: UTF8.self)
                })
        }
        let (pairs, exact) = Self.check(universe, selected: selected, seed: seed)
        #expect(pairs >= 12_500)
        #expect(exact >= 6)
    }

    @Test(
        .enabled(if: PostgreSQLServer.isAvailable, Comment(rawValue: PostgreSQLServer.howToEnable)),
        arguments: UInt64(0)..<8)
    func inPostgreSQL(seed: UInt64) async throws {
        let universe = try await Self.universe(seed: seed)
        var lines = ["CREATE TEMP TABLE t (id integer PRIMARY KEY, name text NOT NULL, owner_id text);"]
        for (index, row) in universe.rows.enumerated() {
            lines.append(
                "INSERT INTO t VALUES (\(index), \(PlanSQLAttributeColumnPostgreSQLTests.hex(row.name)), "
                    + "\(row.owner.map(PlanSQLAttributeColumnPostgreSQLTests.hex) ?? "NULL"));")
        }
        for (index, caller) in universe.callers.enumerated() {
            let sql = caller.plan.sql(
                column: "name", attributeColumns: ["owner": "owner_id"], dialect: .postgresql)
            lines.append("SELECT \(index), id FROM t WHERE \(sql);")
        }
        let run = try await PostgreSQLServer.run(lines.joined(separator: "\n") + "\n")
        try #require(run.status == 0, "psql: \(run.errors)")
        var selected = Array(repeating: Set<String>(), count: universe.callers.count)
        for row in run.rows {
            let fields = row.split(separator: " ")
            let (caller, id) = try (#require(Int(fields[0])), #require(Int(fields[1])))
            selected[caller].insert(universe.rows[id].name)
        }
        let (pairs, exact) = Self.check(universe, selected: selected, seed: seed)
        #expect(pairs >= 12_500)
        #expect(exact >= 6)
    }
}
