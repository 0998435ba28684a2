/// A least-recently-used store with hard count and cost limits and O(1) lookup, insert and
/// eviction: a dictionary from key to slot plus a doubly linked list threaded through dense
/// arrays by index (no class nodes, so no reference counting per node).
///
/// Keys, values, costs and links live in parallel arrays: moving an entry in the recency list
/// touches only the non-generic `links`, never a key or a value.
///
/// Package-visible for the benchmark.
package struct LeastRecentlyUsed<Key: Hashable, Value> {
    /// The most entries held.
    package let countLimit: Int
    /// The largest total cost held.
    package let costLimit: Int
    /// The total cost of the entries held.
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

    /// Creates an empty store with these limits (negative limits count as 0).
    package init(countLimit: Int, costLimit: Int) {
        self.countLimit = Swift.max(0, countLimit)
        self.costLimit = Swift.max(0, costLimit)
    }

    /// The number of entries held.
    package var count: Int { keys.count }

    /// The value for `key`, marking it most recently used.
    package mutating func value(forKey key: Key) -> Value? {
        guard let index = slotIndex[key] else { return nil }
        if index != newest { moveToNewest(index) }
        return values[index]
    }

    /// Stores `value` as most recently used, evicting the least recently used entries until both
    /// limits hold. A value whose own cost exceeds the cost limit is not stored (and an entry
    /// already stored for the key is removed, since it is stale).
    package mutating func insert(_ value: Value, forKey key: Key, cost: Int) {
        removeValue(forKey: key)
        let cost = Swift.max(0, cost)
        guard countLimit > 0, cost <= costLimit else { return }
        while keys.count >= countLimit || totalCost > costLimit - cost {
            removeSlot(oldest)
        }
        let index = keys.count
        keys.append(key)
        values.append(value)
        costs.append(cost)
        links.append(RecencyLink(newer: -1, older: -1))
        slotIndex[key] = index
        totalCost += cost
        linkAsNewest(index)
    }

    /// Removes the entry for `key` and returns its value, if there was one.
    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        guard let index = slotIndex[key] else { return nil }
        let value = values[index]
        removeSlot(index)
        return value
    }

    /// Removes every entry.
    package mutating func removeAll() {
        slotIndex.removeAll()
        keys.removeAll()
        values.removeAll()
        costs.removeAll()
        links.removeAll()
        totalCost = 0
        newest = -1
        oldest = -1
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

    /// Unlinks `index` and links it as the newest, with one uniqueness check of `links`.
    private mutating func moveToNewest(_ index: Int) {
        let previousNewest = newest
        var oldest = self.oldest
        links.withUnsafeMutableBufferPointer { links in
            let link = links[index]
            // `index` is not the newest, so it has a newer neighbour.
            links[link.newer].older = link.older
            if link.older >= 0 { links[link.older].newer = link.newer } else { oldest = link.newer }
            links[index] = RecencyLink(newer: -1, older: previousNewest)
            links[previousNewest].newer = index
        }
        self.oldest = oldest
        newest = index
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

/// One slot's neighbours in the recency list of ``LeastRecentlyUsed``; -1 for none. Not nested in
/// the generic type, so that moving an entry needs no generic metadata.
struct RecencyLink {
    /// The next more recently used slot.
    var newer: Int
    /// The next less recently used slot.
    var older: Int
}
