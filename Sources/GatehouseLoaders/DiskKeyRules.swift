/// The path rules of ``DiskLoader``, checked in one pass over a key's UTF-8 bytes.
///
/// A key is one or more components separated by single `/` characters. It is refused when it
/// is empty, longer than `maximumKeyLength` bytes, starts with `/` (absolute), ends with `/`,
/// contains `//`, a `.` or `..` component, a component longer than `maximumComponentLength`
/// bytes, a backslash, or a control character (C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F).
enum DiskKeyRules {
    /// The longest key accepted, in UTF-8 bytes.
    static let maximumKeyLength = 1024
    /// The longest component accepted, in UTF-8 bytes.
    static let maximumComponentLength = 255

    /// Checks the UTF-8 bytes of a key; when it is valid, sets `lastComponent` to the index
    /// where its last component starts (0 for a key of one component).
    ///
    /// Eight bytes are looked at together (``isPlain(_:)``) while none of them is special, so a
    /// key of printable ASCII without `/` costs a few instructions per eight bytes. Eight bytes
    /// with something special in them are looked at one at a time, in order, so a key that
    /// breaks several rules is refused for the first break, as a byte-by-byte check would.
    ///
    /// - Returns: `nil` when the key is valid, otherwise why it is not.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, lastComponent: inout Int) -> String? {
        let length = bytes.count
        guard let base = bytes.baseAddress, length > 0 else { return "it is empty" }
        var componentStart = 0
        var index = 0
        while index < length {
            if index &+ 8 <= length {
                if isPlain(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index &+= 8
                    continue
                }
            } else if length >= 8
                && isPlain(UnsafeRawPointer(base + length - 8).loadUnaligned(as: UInt64.self))
            {
                // The last bytes, read again with some already checked before them: none special.
                break
            }
            let end = Swift.min(index &+ 8, length)
            while index < end {
                let byte = base[index]
                switch byte {
                case 0x2F:
                    if let reason = checkComponent(bytes, from: componentStart, to: index) { return reason }
                    componentStart = index + 1
                case 0x00:
                    return "it contains a NUL character"
                case 0x01...0x1F, 0x7F:
                    return "it contains the control character \(codePoint(byte))"
                case 0x80...0x9F where index > 0 && base[index - 1] == 0xC2:
                    return "it contains the control character \(codePoint(byte))"
                case 0x5C:
                    return "it contains a backslash"
                default:
                    break
                }
                index &+= 1
            }
        }
        if componentStart == length { return "it ends with \"/\"" }
        if let reason = checkComponent(bytes, from: componentStart, to: length) { return reason }
        lastComponent = componentStart
        return nil
    }

    /// Whether none of the eight bytes in `word` is special: each is printable ASCII (0x20–0x7E)
    /// other than `/` and `\`. Each test sets the high bit of some byte exactly when some byte
    /// matches (the byte order of `word` does not matter): a byte below 0x20 (subtracting 0x20
    /// from each byte borrows into a byte whose high bit was clear), a byte of 0x7F or more
    /// (adding 1 to each byte sets a high bit, or it was set), a `/` or a `\` (a zero byte
    /// after the exclusive or, found as below 0x01).
    @inline(__always)
    static func isPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let control = (word &- ones &* 0x20) & ~word
        let nonASCII = (word &+ ones) | word
        let slash = word ^ (ones &* 0x2F)
        let backslash = word ^ (ones &* 0x5C)
        let separator = (slash &- ones) & ~slash | (backslash &- ones) & ~backslash
        return (control | nonASCII | separator) & (ones &* 0x80) == 0
    }

    /// Checks a key given as a `String`: its length, then its bytes.
    ///
    /// - Returns: `nil` when the key is valid, otherwise why it is not.
    static func check(_ key: String) -> String? {
        let length = key.utf8.count
        guard length <= maximumKeyLength else {
            return "it is \(length) bytes long, more than \(maximumKeyLength)"
        }
        var key = key
        var lastComponent = 0
        return key.withUTF8 { check($0, lastComponent: &lastComponent) }
    }

    private static func checkComponent(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> String? {
        switch end - start {
        case 0:
            return start == 0
                ? "it starts with \"/\", so it is an absolute path"
                : "it contains an empty component (\"//\")"
        case 1 where buffer[start] == 0x2E:
            return "it contains a \".\" component"
        case 2 where buffer[start] == 0x2E && buffer[start + 1] == 0x2E:
            return "it contains a \"..\" component"
        case let length where length > maximumComponentLength:
            return "a component is \(length) bytes long, more than \(maximumComponentLength)"
        default:
            return nil
        }
    }

    private static func codePoint(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
