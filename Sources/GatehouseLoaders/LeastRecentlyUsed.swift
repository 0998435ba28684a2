/// A least-recently-used store with hard limits: a dictionary to slots of parallel arrays, linked
/// by index in recency order, so every operation is O(1). Package-visible for the benchmark.
///
/// The links are an array of their own: called from another module this code runs unspecialized,
/// and links in a generic slot made each move copy through the value witness table (2.5 × slower).
package struct LeastRecentlyUsed<Key: Hashable, Value> {
    package let countLimit: Int
    package let costLimit: Int
    package private(set) var totalCost = 0
    private var slotIndex: [Key: Int] = [:]
    private var keys: [Key] = []
    private var values: [Value] = []
    private var costs: [Int] = []
    private var links: [RecencyLink] = []
    /// The most recently used slot, or -1 when empty.
    private var newest = -1
    /// The least recently used slot, or -1 when empty.
    private var oldest = -1

    /// Negative limits count as 0.
    package init(countLimit: Int, costLimit: Int) {
        self.countLimit = Swift.max(0, countLimit)
        self.costLimit = Swift.max(0, costLimit)
    }

    package var count: Int { keys.count }

    /// The value for `key`, marking it most recently used.
    package mutating func value(forKey key: Key) -> Value? {
        guard let index = slotIndex[key] else { return nil }
        if index != newest {
            unlink(index)
            linkAsNewest(index)
        }
        return values[index]
    }

    /// Stores `value` as most recently used, evicting until both limits hold. A value costlier
    /// than the limit is not stored, and the key's stale entry goes.
    package mutating func insert(_ value: Value, forKey key: Key, cost: Int) {
        removeValue(forKey: key)
        let cost = Swift.max(0, cost)
        guard countLimit > 0, cost <= costLimit else { return }
        while keys.count >= countLimit || totalCost > costLimit - cost {
            removeSlot(oldest)
        }
        keys.append(key)
        values.append(value)
        costs.append(cost)
        links.append(RecencyLink(newer: -1, older: -1))
        slotIndex[key] = keys.count - 1
        totalCost += cost
        linkAsNewest(keys.count - 1)
    }

    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        guard let index = slotIndex[key] else { return nil }
        let value = values[index]
        removeSlot(index)
        return value
    }

    package mutating func removeAll() {
        self = LeastRecentlyUsed(countLimit: countLimit, costLimit: costLimit)
    }

    /// Unlinks and removes the slot at `index`, moving the last slot into its place.
    private mutating func removeSlot(_ index: Int) {
        unlink(index)
        slotIndex.removeValue(forKey: keys[index])
        totalCost -= costs[index]
        let last = keys.count - 1
        if index != last {
            keys.swapAt(index, last)
            values.swapAt(index, last)
            costs.swapAt(index, last)
            let moved = links[last]
            links[index] = moved
            slotIndex[keys[index]] = index
            if moved.newer >= 0 { links[moved.newer].older = index } else { newest = index }
            if moved.older >= 0 { links[moved.older].newer = index } else { oldest = index }
        }
        keys.removeLast()
        values.removeLast()
        costs.removeLast()
        links.removeLast()
    }

    private mutating func unlink(_ index: Int) {
        let link = links[index]
        if link.newer >= 0 { links[link.newer].older = link.older } else { newest = link.older }
        if link.older >= 0 { links[link.older].newer = link.newer } else { oldest = link.newer }
    }

    private mutating func linkAsNewest(_ index: Int) {
        links[index] = RecencyLink(newer: -1, older: newest)
        if newest >= 0 { links[newest].newer = index } else { oldest = index }
        newest = index
    }
}

/// One slot's more and less recently used neighbours, -1 for none. Not nested in the generic type,
/// so that moving an entry needs no generic metadata.
struct RecencyLink {
    var newer: Int
    var older: Int
}

/// The store may cross tasks (behind a ``CachingLoader``'s lock) when its keys and values may.
extension LeastRecentlyUsed: Sendable where Key: Sendable, Value: Sendable {}
