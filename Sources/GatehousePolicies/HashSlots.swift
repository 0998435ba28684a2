/// A hash table of `(key, value, tag)` entries: open addressing, linear probing, one array of
/// 16-byte slots (a probe touches one cache line). Several entries may share a key.
///
/// The pattern indexes key it by hashes they compute themselves (with well-mixed high bits: the
/// home slot is the key's top bits) and resolve collisions by comparing the real entries, so
/// this table only has to be fast: it skips `Hasher` (whose per-process seeding protects tables
/// filled from untrusted input; these tables are filled from configuration, and lookups cannot
/// change them). The tag is a second small key the caller checks before comparing entries.
struct HashSlots: Sendable {
    /// One entry; `value` is -1 in an empty slot.
    struct Slot: Sendable {
        var key: UInt64
        var value: Int32
        var tag: Int32
    }

    private static let empty = Slot(key: 0, value: -1, tag: 0)

    private var slots: [Slot]
    private var mask: Int
    /// `64 - log2(slots.count)`: the key shifted right by it is a slot index.
    private var shift: UInt64
    /// The number of entries stored.
    private(set) var count = 0

    /// Creates an empty table.
    init() {
        slots = Array(repeating: Self.empty, count: 8)
        mask = 7
        shift = 61
    }

    /// Adds an entry; an entry with the same key is kept too. `value` must not be negative.
    mutating func insert(key: UInt64, value: Int32, tag: Int32) {
        precondition(value >= 0, "HashSlots stores non-negative values")
        if (count + 1) * 2 > slots.count {
            grow()
        }
        Self.place(Slot(key: key, value: value, tag: tag), in: &slots, mask: mask, shift: shift)
        count += 1
    }

    /// Calls `body` with the value of each entry whose key is `key` and whose tag is `tag`, until
    /// `body` returns true.
    ///
    /// - Returns: Whether `body` returned true.
    @inline(__always)
    func first(key: UInt64, tag: Int32, where body: (Int32) -> Bool) -> Bool {
        slots.withUnsafeBufferPointer { slots in
            // In range: a key shifted by `shift` is below `slots.count`, `mask` is
            // `slots.count - 1`, and at most half the slots are full, so the walk reaches an
            // empty slot.
            var index = Int(truncatingIfNeeded: key &>> shift)
            while true {
                let slot = slots[index]
                if slot.value < 0 { return false }
                if slot.key == key && slot.tag == tag && body(slot.value) { return true }
                index = (index &+ 1) & mask
            }
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Self.empty, count: old.count * 2)
        mask = slots.count - 1
        shift -= 1
        for slot in old where slot.value >= 0 {
            Self.place(slot, in: &slots, mask: mask, shift: shift)
        }
    }

    private static func place(_ slot: Slot, in slots: inout [Slot], mask: Int, shift: UInt64) {
        var index = Int(truncatingIfNeeded: slot.key &>> shift)
        while slots[index].value >= 0 {
            index = (index + 1) & mask
        }
        slots[index] = slot
    }
}
