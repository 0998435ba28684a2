/// Ids by integer keys: a hash table in one array of slots (open addressing, linear probing),
/// with a bit set in front that answers most looks-ups of absent keys without reading a slot.
///
/// The keys are already hashes (of pattern bytes, 32 bits) or packed ids (64 bits), so a slot
/// is found by one multiplication, and a probe reads one slot holding both key and id (8 bytes
/// with 32-bit keys). A `Dictionary` would hash each key again and keep keys and values in
/// separate arrays, two or three cache misses per probe instead of one. The bit set (four bits
/// a slot, one set per key) stays in cache where a table of 100,000 keys does not, and many
/// looks-ups are of absent keys: a decision probes the prefix table at the prefix lengths some
/// pattern has. Together they keep a decision over 100,000 rules about as fast as one over 100
/// (see docs/performance.md).
struct HashedIDs<Key: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable {
    private struct Slot: Sendable {
        var key: Key
        /// -1 in an empty slot.
        var id: Int32
    }

    private var slots = [Slot](repeating: Slot(key: 0, id: -1), count: 8)
    /// The table has `2^(64 - shift)` slots.
    private var shift: UInt64 = 61
    /// One bit for every key stored (and, rarely, others): four bits a slot.
    private var present = [UInt64](repeating: 0, count: 1)
    private var count = 0

    /// Makes room for `count` keys in all, so that adding them does not grow the table.
    mutating func reserveCapacity(_ count: Int) {
        var size = slots.count
        while size < 2 * count { size *= 2 }
        guard size > slots.count else { return }
        let old = slots
        slots = [Slot](repeating: Slot(key: 0, id: -1), count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        present = [UInt64](repeating: 0, count: max(1, 4 * size / 64))
        self.count = 0
        for slot in old where slot.id >= 0 {
            self[slot.key] = slot.id
        }
    }

    /// The id stored under `key`, or `nil`.
    subscript(key: Key) -> Int32? {
        get {
            let bit = presenceBit(key)
            guard present[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return nil }
            var index = home(key)
            while true {
                let slot = slots[index]
                if slot.id < 0 { return nil }
                if slot.key == key { return slot.id }
                index = (index + 1) & (slots.count - 1)
            }
        }
        set {
            guard let id = newValue else { preconditionFailure("HashedIDs never removes a key") }
            if (count + 1) * 2 > slots.count { reserveCapacity(slots.count) }
            var index = home(key)
            while slots[index].id >= 0 && slots[index].key != key {
                index = (index + 1) & (slots.count - 1)
            }
            if slots[index].id < 0 { count += 1 }
            slots[index] = Slot(key: key, id: id)
            let bit = presenceBit(key)
            present[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    /// The first slot to probe: the key's top bits after mixing it with a multiplication.
    private func home(_ key: Key) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9e37_79b9_7f4a_7c15) >> shift)
    }

    /// The key's bit in `present`: top bits of another mixing, independent of the slot.
    private func presenceBit(_ key: Key) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0xc2b2_ae3d_27d4_eb4f) >> (shift - 2))
    }
}
