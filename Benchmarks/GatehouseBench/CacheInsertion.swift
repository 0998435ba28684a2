import Foundation
import GatehouseCore
import GatehouseLoaders

/// The shared workload of the two insert cases: a cache full with 100,000 entries, then new keys
/// with costs drawn from one seeded generator, so both caches see the same stream. Costs vary
/// (1 to 64 KiB, like resources sized in bytes); only the count limit evicts.
enum InsertWorkload {
    static let capacity = 100_000
    static let payload = Payload(bytes: 1)

    /// The costs of keys `0, 1, 2, ...`, cycling through a fixed table.
    static let costs: [Int] = {
        var generator = SplitMix64(state: 42)
        return (0..<(1 << 16)).map { _ in Int(generator.next() % 65_536) + 1 }
    }()

    static func cost(of key: Int) -> Int {
        costs[key & (costs.count - 1)]
    }
}

/// CachingLoader's LRU, behind a lock as CachingLoader keeps it, filled to capacity.
final class LruInsertState: Sendable {
    private let state: LockedState<(cache: LeastRecentlyUsed<Int, Payload>, next: Int)>

    init() {
        var cache = LeastRecentlyUsed<Int, Payload>(countLimit: InsertWorkload.capacity, costLimit: .max)
        for key in 0..<InsertWorkload.capacity {
            cache.insert(InsertWorkload.payload, forKey: key, cost: InsertWorkload.cost(of: key))
        }
        state = LockedState((cache, InsertWorkload.capacity))
    }

    /// Inserts `n` new keys, each evicting the least recently used entry.
    func insert(_ n: Int) -> Int {
        var sum = 0
        for _ in 0..<n {
            sum &+= state.withLock { state in
                let key = state.next
                state.next += 1
                state.cache.insert(InsertWorkload.payload, forKey: key, cost: InsertWorkload.cost(of: key))
                return state.cache.count
            }
        }
        return sum
    }
}

/// Foundation's NSCache with the same limit and the same stream of keys and costs.
final class NSCacheInsertState: @unchecked Sendable {
    private let cache = NSCache<NSNumber, Payload>()
    private let next = LockedState(InsertWorkload.capacity)

    init() {
        cache.countLimit = InsertWorkload.capacity
        // Filled in falling cost order, which NSCache inserts at the head of its cost-sorted list
        // in O(1); the content is the same as inserting in key order, the setup just takes seconds
        // less.
        let keys = (0..<InsertWorkload.capacity).sorted {
            InsertWorkload.cost(of: $0) > InsertWorkload.cost(of: $1)
        }
        for key in keys {
            cache.setObject(
                InsertWorkload.payload, forKey: NSNumber(value: key), cost: InsertWorkload.cost(of: key))
        }
    }

    /// Inserts `n` new keys, each evicting one entry.
    func insert(_ n: Int) -> Int {
        var sum = 0
        for _ in 0..<n {
            let key = next.withLock { next in
                defer { next += 1 }
                return next
            }
            cache.setObject(
                InsertWorkload.payload, forKey: NSNumber(value: key), cost: InsertWorkload.cost(of: key))
            sum &+= key
        }
        return sum
    }
}
