/// Recognizes text saved as UTF-16 or UTF-32, so that a file that must be UTF-8 (a rules file,
/// a configuration) says what it is instead of naming the NUL or odd byte it meets first.
package enum WideEncoding {
    /// `"UTF-16LE"`, `"UTF-16BE"`, `"UTF-32LE"` or `"UTF-32BE"` when `bytes` begin with its
    /// byte-order mark or the NUL bytes it puts around an ASCII character (RFC 8259 §8.1).
    package static func name(of bytes: [UInt8]) -> String? {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return "UTF-32BE"
        case (0xFF, 0xFE, 0x00, 0x00): return "UTF-32LE"
        case (0xFE, 0xFF, _, _): return "UTF-16BE"
        case (0xFF, 0xFE, _, _): return "UTF-16LE"
        default: break
        }
        guard bytes.count >= 2 else { return nil }
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0x00, let c) where c != 0 && bytes.count >= 4: return "UTF-32BE"
        case (let a, 0x00, 0x00, 0x00) where a != 0 && bytes.count >= 4: return "UTF-32LE"
        case (0x00, let b, _, _) where b != 0: return "UTF-16BE"
        case (let a, 0x00, _, _) where a != 0: return "UTF-16LE"
        default: return nil
        }
    }
}
