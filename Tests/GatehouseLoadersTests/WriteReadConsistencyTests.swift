import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

/// Writes and reads interleaved through the safe order `AccessProxy(CachingLoader(DiskLoader))`.
@Suite("Writes and reads through the proxy, the cache and the disk")
struct WriteReadConsistencyTests {
    /// The highest counter whose write completed, per key.
    private final class Completed: Sendable {
        private let state = LockedState([String: Int]())
        func set(_ value: Int, for key: String) { state.withLock { $0[key] = value } }
        func value(for key: String) -> Int { state.withLock { $0[key] ?? 0 } }
    }

    @Test func aReadNeverReturnsAValueOlderThanTheLastCompletedWrite() async throws {
        let directory = try TemporaryDirectory()
        let keys = ["docs/a", "docs/b", "docs/c", "docs/d"]
        try directory.makeDirectory("docs")
        for key in keys { try directory.write(key, "0") }
        let proxy = AccessProxy(
            CachingLoader(DiskLoader(root: directory.url), countLimit: 16, byteLimit: 1 << 20),
            gatekeepers: [SwitchPolicy(allowed: true)])
        let completed = Completed()
        let writesPerKey = 250  // 1,000 writes
        let readsPerReader = 250  // 4 readers: 1,000 reads
        let stale = try await withThrowingTaskGroup(of: Int.self) { group in
            for key in keys {
                group.addTask {
                    for value in 1...writesPerKey {
                        try await proxy.store(Data(String(value).utf8), for: key)
                        completed.set(value, for: key)
                    }
                    return 0
                }
            }
            for reader in 0..<4 {
                group.addTask {
                    var stale = 0
                    for round in 0..<readsPerReader {
                        let key = keys[(reader + round) % keys.count]
                        let floor = completed.value(for: key)
                        let data = try await proxy.load(key)
                        let value = Int(String(decoding: data, as: UTF8.self)) ?? -1
                        if value < floor { stale += 1 }
                        await Task.yield()
                    }
                    return stale
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(stale == 0)
        for key in keys {
            #expect(try await proxy.load(key) == Data(String(writesPerKey).utf8))
        }
        #expect(try await proxy.keys(under: "docs") == keys)
    }
}
