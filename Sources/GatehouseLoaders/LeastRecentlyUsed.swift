/// A least-recently-used store with hard limits: a dictionary to slots of one array, linked by
/// index in recency order, so every operation is O(1). Package-visible for the benchmark.
package struct LeastRecentlyUsed<Key: Hashable, Value> {
    /// One entry and its neighbours in the recency list; -1 for none.
    private struct Slot {
        var key: Key
        var value: Value
        var cost: Int
        /// The next more recently used slot.
        var newer = -1
        /// The next less recently used slot.
        var older = -1
    }

    package let countLimit: Int
    package let costLimit: Int
    package private(set) var totalCost = 0
    private var slotIndex: [Key: Int] = [:]
    private var slots: [Slot] = []
    /// The most recently used slot, or -1 when empty.
    private var newest = -1
    /// The least recently used slot, or -1 when empty.
    private var oldest = -1

    /// Negative limits count as 0.
    package init(countLimit: Int, costLimit: Int) {
        self.countLimit = Swift.max(0, countLimit)
        self.costLimit = Swift.max(0, costLimit)
    }

    package var count: Int { slots.count }

    /// The value for `key`, marking it most recently used.
    package mutating func value(forKey key: Key) -> Value? {
        guard let index = slotIndex[key] else { return nil }
        if index != newest {
            unlink(index)
            linkAsNewest(index)
        }
        return slots[index].value
    }

    /// Stores `value` as most recently used, evicting until both limits hold. A value costlier
    /// than the limit is not stored, and the key's stale entry goes.
    package mutating func insert(_ value: Value, forKey key: Key, cost: Int) {
        removeValue(forKey: key)
        let cost = Swift.max(0, cost)
        guard countLimit > 0, cost <= costLimit else { return }
        while slots.count >= countLimit || totalCost > costLimit - cost {
            removeSlot(oldest)
        }
        slots.append(Slot(key: key, value: value, cost: cost))
        slotIndex[key] = slots.count - 1
        totalCost += cost
        linkAsNewest(slots.count - 1)
    }

    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        guard let index = slotIndex[key] else { return nil }
        let value = slots[index].value
        removeSlot(index)
        return value
    }

    package mutating func removeAll() {
        slotIndex.removeAll()
        slots.removeAll()
        totalCost = 0
        newest = -1
        oldest = -1
    }

    /// Unlinks and removes the slot at `index`, moving the last slot into its place.
    private mutating func removeSlot(_ index: Int) {
        unlink(index)
        slotIndex.removeValue(forKey: slots[index].key)
        totalCost -= slots[index].cost
        let last = slots.count - 1
        if index != last {
            slots.swapAt(index, last)
            let moved = slots[index]
            slotIndex[moved.key] = index
            if moved.newer >= 0 { slots[moved.newer].older = index } else { newest = index }
            if moved.older >= 0 { slots[moved.older].newer = index } else { oldest = index }
        }
        slots.removeLast()
    }

    private mutating func unlink(_ index: Int) {
        let (newer, older) = (slots[index].newer, slots[index].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
    }

    private mutating func linkAsNewest(_ index: Int) {
        slots[index].newer = -1
        slots[index].older = newest
        if newest >= 0 { slots[newest].newer = index } else { oldest = index }
        newest = index
    }
}
