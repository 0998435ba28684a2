import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseSQLite

/// `list-owner-plan-100k` and `list-owner-each-100k`: what alice may read among 100,000
/// documents in one SQLite table, each owned by one of 100 users (alice owns 1,000), where the
/// rules allow a document to its owner; through a proxy whose `SQLiteLoader` pushes the plan's
/// owner predicate down (1,000 rows read and decided), and through one whose base lists every
/// name (100,000 rows, each read for its owner and decided).
func ownerListingCases(wanted: (String) -> Bool) async throws -> [BenchCase] {
    guard wanted("list-owner-plan-100k") || wanted("list-owner-each-100k") else { return [] }
    let table = try SQLiteLoader(path: ":memory:", attributeColumns: ["owner": "owner_id"])
    for index in 0..<100_000 {
        let owner = index % 100 == 42 ? "alice" : "user-\(index % 100)"
        try await table.store(Data(), for: "docs/doc-\(index)", attributes: ["owner": owner])
    }
    let rules = try RulesPolicy(
        text: "allow * list *\nallow * read docs/* if owner={subject}\n", name: "owners")
    let planned = table.guarded(by: rules, attributes: table.resourceAttributes)
    let each = EveryRow(base: table).guarded(by: rules, attributes: table.resourceAttributes)
    let alice = AccessContext(subject: "alice")
    func listing(_ list: @escaping @Sendable () async throws -> [String])
        -> @Sendable (Int) async throws -> Int
    {
        { n in
            try await AccessContext.$current.withValue(alice) {
                var sum = 0
                for _ in 0..<n { sum &+= try await list().count }
                return sum
            }
        }
    }
    return [
        BenchCase(
            "list-owner-plan-100k",
            "alice's 1,000 of 100,000 documents owned by 100 users, SQLiteLoader pushing the owner down",
            iterations: 20, quick: 2, body: listing { try await planned.keys(under: "") }),
        BenchCase(
            "list-owner-each-100k", "the same listing with every one of the 100,000 rows read and decided",
            iterations: 2, quick: 1, body: listing { try await each.keys(under: "") }),
    ]
}

/// A listing that cannot filter: the table's names, every one.
private struct EveryRow: ResourceLoading, ResourceListing {
    let base: SQLiteLoader

    func load(_ key: String) async throws -> Data { try await base.load(key) }

    func keys(under prefix: String) async throws -> [String] { try await base.keys(under: prefix) }
}
