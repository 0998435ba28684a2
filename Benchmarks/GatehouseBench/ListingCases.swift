import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

/// `list-plan-100k` and `list-each-100k`: what alice may read among 100,000 files in 1,000
/// folders on disk, where the rules allow one folder; through a proxy whose `DiskLoader` lists by
/// the plan (it opens one folder and hands back its 100 files), and through one whose base lists
/// every name (100,000 names, each decided).
func listingCases(_ f: Fixtures, wanted: (String) -> Bool) throws -> [BenchCase] {
    guard wanted("list-plan-100k") || wanted("list-each-100k") else { return [] }
    let root = f.scratch.url("listing-100k")
    for folder in 0..<1_000 {
        let url = root.appendingPathComponent("folder-\(folder)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for file in 0..<100 {
            _ = FileManager.default.createFile(
                atPath: url.appendingPathComponent("doc-\(file).txt").path, contents: nil)
        }
    }
    let rules = try RulesPolicy(text: "allow * list *\nallow alice read folder-42/*\n", name: "listing")
    let disk = DiskLoader(root: root)
    let planned = AccessProxy(disk, gatekeepers: [rules])
    let each = AccessProxy(EveryName(base: disk), gatekeepers: [rules])
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
            "list-plan-100k", "alice's 100 of 100,000 files in 1,000 folders, DiskLoader listing by the plan",
            iterations: 200, quick: 5, body: listing { try await planned.keys(under: "") }),
        BenchCase(
            "list-each-100k", "the same listing with every one of the 100,000 names decided",
            iterations: 3, quick: 1, body: listing { try await each.keys(under: "") }),
    ]
}

/// A listing that cannot filter: the disk's names, every one.
private struct EveryName: ResourceLoading, ResourceListing {
    let base: DiskLoader

    func load(_ key: String) async throws -> Data { try await base.load(key) }

    func keys(under prefix: String) async throws -> [String] { try await base.keys(under: prefix) }
}
