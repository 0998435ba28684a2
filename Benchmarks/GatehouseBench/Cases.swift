import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything the cases use, built before the first measurement.
struct Fixtures: Sendable {
    let scratch: Scratch
    let memory: MemoryLoader<String, Data>
    let smallFile: CPath
    let allowList1M: AllowList
    let policy100: FilePolicy
    let policy100k: FilePolicy
    let requests100: [AccessRequest]
    let requests100k: [AccessRequest]
    let reloadPath: CPath
    /// 100,000 rules naming 10,000 groups nested 8 deep, and requests for them; `nil` unless
    /// `file-policy-groups-100k` is wanted.
    let groups100k: (policy: FilePolicy, requests: [AccessRequest])?
    /// 100,000 rules with placeholders, and requests for them; `nil` unless
    /// `file-policy-placeholders-100k` is wanted.
    let placeholders100k: (policy: FilePolicy, requests: [AccessRequest])?
    let window: TimeWindow
    let disk: DiskLoader
    let blobNames: [String]
    let blobPaths: [CPath]
    let cache: CachingLoader<MemoryLoader<String, Data>>

    static let blobSize = 32 << 10
    static let blobCount = 16

    /// Builds the fixtures; the large ones only when a case that `wanted` selects uses them
    /// (so a profile of one small case starts fast).
    static func build(wanted: (String) -> Bool) async throws -> Fixtures {
        let scratch = try Scratch()
        let memory = Keys.memoryLoader()
        let small = try scratch.write("small.txt", Data("a small file\n".utf8))
        // A million exact resource patterns, with a thousand wildcard patterns among them.
        var patterns = Keys.all
        let patternCount = wanted("proxy-allowlist-1m") ? 1_000_000 : Keys.count
        patterns.reserveCapacity(patternCount)
        var index = Keys.count
        while patterns.count < patternCount {
            patterns.append(index % 1000 == 0 ? "shared/team-\(index)/*" : "avatars/user-\(index)/photo.png")
            index += 1
        }
        let allowList = try AllowList(resources: patterns)
        let reloadCount = 100_000
        let policy100 = try await Rules.policy(count: 100, named: "policy-100", in: scratch)
        let bigPolicyWanted = ["file-policy-100k", "file-policy-reload-100k", "rules-engine-100k"].contains(
            where: wanted)
        let policy100k = try await Rules.policy(
            count: bigPolicyWanted ? reloadCount : 100, named: "policy-100k", in: scratch)
        var groups100k: (policy: FilePolicy, requests: [AccessRequest])?
        if wanted("file-policy-groups-100k") {
            let (count, groups, depth) = (reloadCount, 10_000, 8)
            let requests = Rules.groupsRequests(count: count, groups: groups, depth: depth)
            let text = Rules.groupsText(count: count, groups: groups, depth: depth)
            let policy = try await Rules.policy(
                text: text, allowing: requests, named: "policy-groups-100k", in: scratch)
            groups100k = (policy, requests)
        }
        var placeholders100k: (policy: FilePolicy, requests: [AccessRequest])?
        if wanted("file-policy-placeholders-100k") {
            let requests = Rules.placeholdersRequests(count: reloadCount)
            let policy = try await Rules.policy(
                text: Rules.placeholdersText(count: reloadCount), allowing: requests,
                named: "policy-placeholders-100k", in: scratch)
            placeholders100k = (policy, requests)
        }
        let blobDirectory = scratch.url("blobs")
        try FileManager.default.createDirectory(at: blobDirectory, withIntermediateDirectories: true)
        var generator = SplitMix64(state: 7)
        var names: [String] = []
        for blob in 0..<blobCount {
            let bytes = (0..<blobSize).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let name = "blob-\(blob).bin"
            try Data(bytes).write(to: blobDirectory.appendingPathComponent(name))
            names.append(name)
        }
        let cache = CachingLoader(memory, countLimit: 2 * Keys.count)
        for key in Keys.all {
            _ = try await cache.load(key)
        }
        return Fixtures(
            scratch: scratch, memory: memory, smallFile: CPath(small.path), allowList1M: allowList,
            policy100: policy100, policy100k: policy100k,
            requests100: Rules.requests(count: 100),
            requests100k: Rules.requests(count: bigPolicyWanted ? reloadCount : 100),
            reloadPath: CPath(policy100k.url.path), groups100k: groups100k,
            placeholders100k: placeholders100k, window: try openWindow(),
            disk: DiskLoader(root: blobDirectory), blobNames: names,
            blobPaths: names.map { CPath(blobDirectory.appendingPathComponent($0).path) }, cache: cache)
    }
}

/// The cases of the issue, in report order.
func mainCases(_ f: Fixtures, sink: Sink) throws -> [BenchCase] {
    let keys = Keys.all
    let mask = Keys.mask
    let memory = f.memory
    let proxy1 = memory.guarded(by: AlwaysAllow())
    let proxyAllowList = memory.guarded(by: f.allowList1M)
    let proxy4 = memory.guarded(
        by: try AllowList(resources: ["avatars/*"]), f.window, f.policy100, AlwaysAllow())
    let context = AccessContext(subject: "user-7")
    // The same four gates over a base that reads an immutable dictionary, without a lock: what
    // two tasks contend on is then only what the gate shares.
    let proxy4Frozen = FrozenLoader(Keys.all).guarded(
        by: try AllowList(resources: ["avatars/*"]), f.window, f.policy100, AlwaysAllow())
    let window = f.window
    let windowRequest = AccessRequest(subject: "user-7", resource: keys[7])
    let cache = f.cache
    let lru = LazyState { LruInsertState() }
    let nscache = LazyState { NSCacheInsertState() }

    // The parsed rules behind the two FilePolicy fixtures, decided without the `stat` around.
    let rules100 = try f.policy100.currentRules()
    let rules100k = try f.policy100k.currentRules()
    var cases = [
        BenchCase("direct-memory-load", "MemoryLoader.load, no proxy", iterations: 400_000) { n in
            var sum = 0
            for i in 0..<n { sum &+= try await memory.load(keys[i & mask]).count }
            return sum
        },
        BenchCase("proxy-1-gate", "the same load through AccessProxy with AlwaysAllow", iterations: 400_000) {
            n in
            var sum = 0
            for i in 0..<n { sum &+= try await proxy1.load(keys[i & mask]).count }
            return sum
        },
        BenchCase("stat-syscall", "one stat(2) of a small file", iterations: 200_000) {
            [path = f.smallFile] n in
            var sum = 0
            var status = stat()
            for _ in 0..<n {
                precondition(stat(path.pointer, &status) == 0)
                sum &+= Int(status.st_size)
            }
            return sum
        },
        BenchCase(
            "proxy-allowlist-1m", "a load through AllowList of 1,000,000 resource patterns",
            iterations: 400_000
        ) { n in
            var sum = 0
            for i in 0..<n { sum &+= try await proxyAllowList.load(keys[i & mask]).count }
            return sum
        },
        BenchCase(
            "proxy-4-gates", "a load through AllowList, TimeWindow, FilePolicy (100 rules), AlwaysAllow",
            iterations: 100_000
        ) { n in
            try await AccessContext.$current.withValue(context) {
                var sum = 0
                for i in 0..<n { sum &+= try await proxy4.load(keys[i & mask]).count }
                return sum
            }
        },
        BenchCase(
            "file-policy-100", "one FilePolicy decision, 100 rules, file unchanged", iterations: 100_000
        ) {
            [policy = f.policy100, requests = f.requests100] n in
            var sum = 0
            for i in 0..<n { sum &+= try await policy.evaluate(requests[i & mask]).isAllowed ? 1 : 0 }
            return sum
        },
        BenchCase(
            "file-policy-100k", "one FilePolicy decision, 100,000 rules, file unchanged", iterations: 100_000
        ) { [policy = f.policy100k, requests = f.requests100k] n in
            var sum = 0
            for i in 0..<n { sum &+= try await policy.evaluate(requests[i & mask]).isAllowed ? 1 : 0 }
            return sum
        },
        BenchCase(
            "rules-engine-100", "the rules engine's decision alone (no stat), 100 rules", iterations: 200_000
        ) { [requests = f.requests100] n in
            var sum = 0
            for i in 0..<n { sum &+= rules100.decide(requests[i & mask])?.line ?? 0 }
            return sum
        },
        BenchCase(
            "rules-engine-100k", "the rules engine's decision alone (no stat), 100,000 rules",
            iterations: 200_000
        ) { [requests = f.requests100k] n in
            var sum = 0
            for i in 0..<n { sum &+= rules100k.decide(requests[i & mask])?.line ?? 0 }
            return sum
        },
        BenchCase(
            "file-policy-reload-100k",
            "a decision right after the 100,000-rule file changed: stat, read, parse, index",
            iterations: 4, quick: 1
        ) { [policy = f.policy100k, requests = f.requests100k, path = f.reloadPath] n in
            var sum = 0
            for i in 0..<n {
                touch(path.pointer)
                sum &+= try await policy.evaluate(requests[i & mask]).isAllowed ? 1 : 0
            }
            return sum
        },
    ]
    if let fixture = f.groups100k {
        cases.append(
            BenchCase(
                "file-policy-groups-100k",
                "one FilePolicy decision, 100,000 rules naming 10,000 groups nested 8 deep, file unchanged",
                iterations: 100_000
            ) { [policy = fixture.policy, requests = fixture.requests] n in
                var sum = 0
                for i in 0..<n { sum &+= try await policy.evaluate(requests[i & mask]).isAllowed ? 1 : 0 }
                return sum
            })
    }
    if let fixture = f.placeholders100k {
        cases.append(
            BenchCase(
                "file-policy-placeholders-100k",
                "one FilePolicy decision, 100,000 rules with {subject} or {tenant}, file unchanged",
                iterations: 100_000
            ) { [policy = fixture.policy, requests = fixture.requests] n in
                var sum = 0
                for i in 0..<n { sum &+= try await policy.evaluate(requests[i & mask]).isAllowed ? 1 : 0 }
                return sum
            })
    }
    cases += [
        BenchCase("time-window", "one TimeWindow decision (Europe/Berlin, fixed clock)", iterations: 400_000)
        {
            n in
            var sum = 0
            for _ in 0..<n { sum &+= try await window.evaluate(windowRequest).isAllowed ? 1 : 0 }
            return sum
        },
        BenchCase("disk-load-32k", "DiskLoader.load of a 32 KiB file, warm page cache", iterations: 20_000) {
            [disk = f.disk, names = f.blobNames] n in
            var sum = 0
            for i in 0..<n { sum &+= try await disk.load(names[i % names.count]).count }
            return sum
        },
        BenchCase(
            "raw-read-32k", "open, read to the end, close of the same files, as Data", iterations: 20_000
        ) {
            [paths = f.blobPaths] n in
            var sum = 0
            for i in 0..<n {
                sum &+= rawRead(paths[i % paths.count].pointer, expectedSize: Fixtures.blobSize).count
            }
            return sum
        },
        BenchCase("memory-load", "MemoryLoader.load (the base of cache-hit)", iterations: 400_000) { n in
            var sum = 0
            for i in 0..<n { sum &+= try await memory.load(keys[i & mask]).count }
            return sum
        },
        BenchCase("cache-hit", "CachingLoader.load, every key cached", iterations: 400_000) { n in
            var sum = 0
            for i in 0..<n { sum &+= try await cache.load(keys[i & mask]).count }
            return sum
        },
        BenchCase(
            "lru-insert-100k", "insert with eviction into CachingLoader's full LRU of 100,000 entries",
            iterations: 200_000
        ) { n in lru.value.insert(n) },
        BenchCase(
            "nscache-insert-100k", "insert with eviction into a full NSCache of 100,000 entries",
            iterations: 100, quick: 5
        ) { n in nscache.value.insert(n) },
        BenchCase("concurrent-1-task", "proxy-1-gate loads, one task", iterations: 400_000) { n in
            try await concurrentLoads(proxy1, tasks: 1, total: n)
        },
        BenchCase("concurrent-2-tasks", "proxy-1-gate loads, two tasks at once", iterations: 400_000) { n in
            try await concurrentLoads(proxy1, tasks: 2, total: n)
        },
        BenchCase(
            "stat-syscall-2-tasks", "stat-syscall split over two tasks at once: what two cores give here",
            iterations: 200_000
        ) { [path = f.smallFile] n in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<2 {
                    group.addTask {
                        var sum = 0
                        var status = stat()
                        for _ in 0..<(n / 2 + (task < n % 2 ? 1 : 0)) {
                            precondition(stat(path.pointer, &status) == 0)
                            sum &+= Int(status.st_size)
                        }
                        return sum
                    }
                }
                return try await group.reduce(0, &+)
            }
        },
        BenchCase(
            "concurrent-4-gates-1-task", "proxy-4-gates loads over a lock-free base, one task",
            iterations: 100_000
        ) {
            n in try await concurrentLoads(proxy4Frozen, tasks: 1, total: n, context: context)
        },
        BenchCase(
            "concurrent-4-gates-2-tasks", "proxy-4-gates loads over a lock-free base, two tasks at once",
            iterations: 100_000
        ) { n in try await concurrentLoads(proxy4Frozen, tasks: 2, total: n, context: context) },
    ]
    return cases
}

/// The scaling cases: gate count and rule count.
func scalingCases(_ f: Fixtures, wanted: (String) -> Bool) async throws -> [BenchCase] {
    let keys = Keys.all
    let mask = Keys.mask
    var cases: [BenchCase] = []
    for gates in [1, 2, 4, 8] {
        let list = try AllowList(resources: ["avatars/*"])
        let proxy = AccessProxy(f.memory, gatekeepers: Array(repeating: list, count: gates))
        cases.append(
            BenchCase(
                "scale-gates-\(gates)", "a load through \(gates) AllowList gate(s)", iterations: 200_000,
                inQuickRun: false
            ) { n in
                var sum = 0
                for i in 0..<n { sum &+= try await proxy.load(keys[i & mask]).count }
                return sum
            })
    }
    if wanted("load-10k") || wanted("diff-10k") {
        // Two versions of 10,000 rules that differ in 10 lines (10 users' allows become denies).
        let old = Rules.text(count: 10_000)
        var lines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in stride(from: 100, to: 10_000, by: 1_000) {
            lines[line] = lines[line].replacingOccurrences(of: "allow ", with: "deny ")
        }
        let new = lines.joined(separator: "\n")
        cases.append(
            BenchCase(
                "load-10k", "parse and index a 10,000-rule file held in memory", iterations: 20, quick: 2
            ) {
                n in
                var sum = 0
                for _ in 0..<n { sum &+= try RulesPolicy(text: old, name: "old.rules").ruleCount }
                return sum
            })
        cases.append(
            BenchCase(
                "diff-10k", "parse two 10,000-rule versions differing in 10 lines and diff them exactly",
                iterations: 4, quick: 1
            ) { n in
                var sum = 0
                for _ in 0..<n {
                    let diff = RulesDiff(
                        old: try RulesPolicy(text: old, name: "old.rules"),
                        new: try RulesPolicy(text: new, name: "new.rules"))
                    sum &+= diff.changes().count
                }
                return sum
            })
    }
    for (label, count) in [("100", 100), ("10k", 10_000), ("100k", 100_000), ("1m", 1_000_000)]
    where wanted("scale-rules-\(label)") {
        let policy = try await Rules.policy(count: count, named: "scale-\(label)", in: f.scratch)
        let requests = Rules.requests(count: count)
        cases.append(
            BenchCase(
                "scale-rules-\(label)", "one FilePolicy decision, \(count) rules", iterations: 100_000,
                inQuickRun: false
            ) { n in
                var sum = 0
                for i in 0..<n { sum &+= try await policy.evaluate(requests[i & mask]).isAllowed ? 1 : 0 }
                return sum
            })
    }
    return cases
}

/// Sets the file's modification time to a new value, so its identity changes.
func touch(_ path: UnsafePointer<CChar>) {
    let stamp = Int(monotonicNanoseconds() % 1_000_000_000_000)
    var times = [
        timespec(tv_sec: 1_000_000 + stamp / 1_000_000_000, tv_nsec: stamp % 1_000_000_000),
        timespec(tv_sec: 1_000_000 + stamp / 1_000_000_000, tv_nsec: stamp % 1_000_000_000),
    ]
    precondition(utimensat(AT_FDCWD, path, &times, 0) == 0, "cannot touch the rules file")
}

/// `total` loads split over `tasks` concurrent tasks, each in `context`.
func concurrentLoads<Base: ResourceLoading<String, Data>>(
    _ proxy: AccessProxy<Base>, tasks: Int, total: Int, context: AccessContext = AccessContext()
) async throws -> Int {
    let keys = Keys.all
    let mask = Keys.mask
    return try await withThrowingTaskGroup(of: Int.self) { group in
        for task in 0..<tasks {
            let share = total / tasks + (task < total % tasks ? 1 : 0)
            group.addTask {
                try await AccessContext.$current.withValue(context) {
                    var sum = 0
                    for i in 0..<share { sum &+= try await proxy.load(keys[(i &+ task &* 509) & mask]).count }
                    return sum
                }
            }
        }
        var sum = 0
        for try await part in group { sum &+= part }
        return sum
    }
}

/// A loader over an immutable dictionary: reads share nothing writable, so concurrent loads
/// contend on nothing in it.
struct FrozenLoader: ResourceLoading {
    let resources: [String: Data]

    init(_ keys: [String]) {
        var resources: [String: Data] = [:]
        for (index, key) in keys.enumerated() {
            resources[key] = Data(repeating: UInt8(truncatingIfNeeded: index), count: 64)
        }
        self.resources = resources
    }

    func load(_ key: String) async throws -> Data {
        guard let data = resources[key] else { throw CocoaError(.fileNoSuchFile) }
        return data
    }
}
