/// A hash table from a 64-bit key to an `Int32`, with open addressing and linear probing.
///
/// The matching indexes key it by hashes they compute themselves and resolve collisions by
/// comparing the real entries, so this table only has to be fast: it skips `Hasher` (whose
/// per-process seeding protects tables filled from untrusted input; these tables are filled
/// from configuration, and lookups cannot change them).
struct HashSlots: Sendable {
    private static let empty: Int32 = -1

    private var keys: [UInt64]
    private var values: [Int32]
    private var mask: Int
    /// The number of keys stored.
    private(set) var count = 0

    /// Creates an empty table.
    init() {
        keys = Array(repeating: 0, count: 8)
        values = Array(repeating: Self.empty, count: 8)
        mask = 7
    }

    /// The value stored for `key`, if any.
    func value(for key: UInt64) -> Int32? {
        var slot = Self.slot(key, mask)
        while true {
            let value = values[slot]
            if value == Self.empty { return nil }
            if keys[slot] == key { return value }
            slot = (slot + 1) & mask
        }
    }

    /// Stores `value` (never negative) for `key` and returns the value it replaces, if any.
    @discardableResult
    mutating func updateValue(_ value: Int32, for key: UInt64) -> Int32? {
        precondition(value >= 0, "HashSlots stores non-negative values")
        if (count + 1) * 2 > keys.count {
            grow()
        }
        var slot = Self.slot(key, mask)
        while values[slot] != Self.empty {
            if keys[slot] == key {
                let old = values[slot]
                values[slot] = value
                return old
            }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        values[slot] = value
        count += 1
        return nil
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: Self.empty, count: oldKeys.count * 2)
        mask = keys.count - 1
        for index in oldKeys.indices where oldValues[index] != Self.empty {
            var slot = Self.slot(oldKeys[index], mask)
            while values[slot] != Self.empty {
                slot = (slot + 1) & mask
            }
            keys[slot] = oldKeys[index]
            values[slot] = oldValues[index]
        }
    }

    /// The home slot of `key`: its bits mixed (the MurmurHash3 finalizer), then masked.
    private static func slot(_ key: UInt64, _ mask: Int) -> Int {
        var x = key
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return Int(truncatingIfNeeded: x) & mask
    }
}
