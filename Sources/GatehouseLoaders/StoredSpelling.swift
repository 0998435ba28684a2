/// Whether a key spells each of its names byte for byte as the volume stores it.
///
/// APFS and HFS+ find a name regardless of normalization and, usually, case: `openat` of
/// `avatars/alice.png` opens `Avatars/Alice.png`, and a deny on one spelling would not cover the
/// other. On Darwin, ``DiskLoader`` asks the volume which name it stores for each component it
/// opened and refuses the key unless the UTF-8 bytes are the same (`String`'s `==` holds
/// `"cafe\u{301}"` and `"café"` equal, exactly the difference that matters here).
package enum StoredSpelling {
    /// Compares the name of `key` at the UTF-8 offsets `component` with `stored`, the name the
    /// volume stores for what that name opened: `nil` when they are the same bytes, else
    /// ``DiskLoaderError/spellingMismatch(key:stored:)`` with the key's path up to this name as stored.
    package static func mismatch(
        in key: String, component: Range<Int>, stored: some Collection<UInt8>
    ) -> DiskLoaderError? {
        let bytes = key.utf8
        let start = bytes.index(bytes.startIndex, offsetBy: component.lowerBound)
        let end = bytes.index(start, offsetBy: component.count)
        if bytes[start..<end].elementsEqual(stored) { return nil }
        return .spellingMismatch(
            key: key, stored: String(decoding: Array(bytes[..<start]) + stored, as: UTF8.self))
    }

    /// Compares the name of `key` at `component` with the name the volume stores for
    /// `descriptor`, what that name opened; `nil` when they agree or the platform does not ask.
    static func mismatch(of descriptor: Int32, in key: String, component: Range<Int>) -> DiskLoaderError? {
        switch LoadersPlatform.storedName(of: descriptor) {
        case nil:
            return nil
        case .bytes(let stored):
            return mismatch(in: key, component: component, stored: stored)
        case .failed(let code):
            return .io(key: key, reason: "the volume did not report a stored name: \(errorMessage(code))")
        case .malformed:
            return .io(key: key, reason: "the volume reported a malformed stored name")
        }
    }
}
