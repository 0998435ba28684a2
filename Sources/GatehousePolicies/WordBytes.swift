/// Byte runs read 8 bytes at a time: loading, comparing and hashing them with unaligned 64-bit
/// loads that never touch a byte outside the run.
///
/// A word is 8 bytes read little-endian, so a run's first byte is a word's lowest byte on every
/// platform. A run of `n` bytes hashes as its `n / 8` full words, one after the other, then its
/// last `n % 8` bytes as one word with zeros above, then `n`: the hash of each prefix of a text
/// costs only the words past the previous prefix (``PatternIndex`` walks prefixes that way).
enum WordBytes {
    /// The address given for a run of 0 bytes that has none: never read.
    static var nowhere: UnsafePointer<UInt8> { UnsafePointer(bitPattern: 1)! }

    /// Calls `body` with the address and count of the UTF-8 bytes of `text`, without copying a
    /// native string (a small one is copied to the stack, as the standard library does).
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafePointer<UInt8>, Int) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable({
            body($0.baseAddress ?? nowhere, $0.count)
        }) {
            return result
        }
        var text = text
        return text.withUTF8 { body($0.baseAddress ?? nowhere, $0.count) }
    }

    /// The 8 bytes at `base + offset`.
    @inline(__always)
    static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// The 4 bytes at `base + offset`.
    @inline(__always)
    private static func halfWord(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self)))
    }

    /// The `count` (0 to 7) bytes at `base + offset` as a word with zeros above them, reading
    /// only inside `base[0..<available]`; requires `offset + count <= available`.
    @inline(__always)
    static func partialWord(_ base: UnsafePointer<UInt8>, offset: Int, count: Int, available: Int) -> UInt64 {
        if count == 0 { return 0 }
        // Wrapping arithmetic and masking shifts: the values are small, and the shift amounts
        // are 8 to 56.
        if offset &+ 8 <= available {
            return word(base, offset) & (~0 &>> (64 &- 8 &* UInt64(truncatingIfNeeded: count)))
        }
        if offset &+ count >= 8 {
            // The 8 bytes that end where the run ends; its bytes are the top `count` of them.
            return word(base, offset &+ count &- 8) &>> (64 &- 8 &* UInt64(truncatingIfNeeded: count))
        }
        return shortWord(base + offset, count: count)
    }

    /// The `count` (1 to 7) bytes at `bytes` as a word, reading no byte outside them: two
    /// overlapping 4-byte loads, or the first, middle and last byte.
    @inline(__always)
    private static func shortWord(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        if count >= 4 {
            return halfWord(bytes, 0) | halfWord(bytes, count &- 4)
                &<< (8 &* UInt64(truncatingIfNeeded: count &- 4))
        }
        let middle = count &>> 1
        return UInt64(bytes[0]) | UInt64(bytes[middle]) &<< (8 &* UInt64(truncatingIfNeeded: middle))
            | UInt64(bytes[count &- 1]) &<< (8 &* UInt64(truncatingIfNeeded: count &- 1))
    }

    /// Whether the `count` bytes at `a` equal the `count` bytes at `b`.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                if word(a, offset) != word(b, offset) { return false }
                offset &+= 8
            }
            // The last 8 bytes, overlapping the words already compared when `count % 8 != 0`.
            return word(a, count &- 8) == word(b, count &- 8)
        }
        if count >= 4 {
            return halfWord(a, 0) == halfWord(b, 0) && halfWord(a, count &- 4) == halfWord(b, count &- 4)
        }
        if count > 0 {
            let middle = count &>> 1
            return a[0] == b[0] && a[middle] == b[middle] && a[count &- 1] == b[count &- 1]
        }
        return true
    }

    /// Whether two runs are equal.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        return equal(a.baseAddress!, b.baseAddress!, count: a.count)
    }

    /// The index of the first `byte` in `bytes`, found 8 bytes at a time: a word XOR the byte
    /// repeated has a zero byte where it is, and the lowest byte the zero-byte test flags is one.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let repeated = ones &* UInt64(byte)
        var index = 0
        while index &+ 8 <= bytes.count {
            let difference = word(base, index) ^ repeated
            let found = (difference &- ones) & ~difference & (ones &<< 7)
            if found != 0 { return index &+ (found.trailingZeroBitCount &>> 3) }
            index &+= 8
        }
        while index < bytes.count {
            if base[index] == byte { return index }
            index &+= 1
        }
        return nil
    }

    // MARK: - Hashing

    /// The state before any word.
    static let seed: UInt64 = 0x243f_6a88_85a3_08d3

    /// The state after one more full word: multiplied (every bit reaches the bits above it),
    /// then rotated by half, so the high bits reach the low ones before the next multiplication.
    /// Each step is a bijection of the state and of the word.
    @inline(__always)
    static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* 0x9e37_79b9_7f4a_7c15
        return product << 32 | product >> 32
    }

    /// The hash of a run of `length` bytes from the state after its full words and its last
    /// `length % 8` bytes (`tail`). Its high bits are well mixed (a table takes its home slot
    /// from them); its low bits are not.
    @inline(__always)
    static func finish(_ state: UInt64, tail: UInt64, length: Int) -> UInt64 {
        (state ^ tail ^ (UInt64(truncatingIfNeeded: length) &* 0xc2b2_ae3d_27d4_eb4f))
            &* 0xd6e8_feb8_6659_fd93
    }

    /// The hash of the `count` bytes at `base`.
    @inline(__always)
    static func hash(_ base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var state = seed
        var offset = 0
        while offset &+ 8 <= count {
            state = mix(state, word(base, offset))
            offset &+= 8
        }
        return finish(
            state, tail: partialWord(base, offset: offset, count: count &- offset, available: count),
            length: count)
    }

    /// The hash of a run.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return finish(seed, tail: 0, length: 0)
        }
        return hash(base, count: bytes.count)
    }
}
