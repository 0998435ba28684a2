import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

/// `proxy-4-gates-disk-32k`: the read of `disk-load-32k` through the four gates of
/// `proxy-4-gates`, so the gate is weighed against the read it guards.
///
/// The rules file has the shapes of ``Rules/text(count:)`` over the blob names: 100 rules, one
/// deny with wildcards, one allow per user for that user's own file, and one allow for every blob.
func gatedDiskCase(_ f: Fixtures) async throws -> BenchCase {
    var text = "# effect subject action resource (100 rules)\ndeny * * private-*\n"
    for user in 0..<98 {
        text += "allow user-\(user) read blob-\(user).bin\n"
    }
    text += "allow * read blob-*\n"
    let context = AccessContext(subject: "user-7")
    let requests = f.blobNames.map { AccessRequest(subject: "user-7", resource: $0) }
    let policy = try await Rules.policy(
        text: text, allowing: requests, named: "policy-disk-100", in: f.scratch)
    let proxy = f.disk.guarded(by: try AllowList(resources: ["blob-*"]), f.window, policy, AlwaysAllow())
    return BenchCase(
        "proxy-4-gates-disk-32k",
        "disk-load-32k through AllowList, TimeWindow, FilePolicy (100 rules), AlwaysAllow",
        iterations: 20_000
    ) { [names = f.blobNames] n in
        try await AccessContext.$current.withValue(context) {
            var sum = 0
            for i in 0..<n { sum &+= try await proxy.load(names[i % names.count]).count }
            return sum
        }
    }
}
