/// Whether a key spells each name byte for byte as the volume stores it: APFS opens
/// `Avatars/Alice.png` for `avatars/alice.png`, past a deny on one spelling. Bytes, since
/// `String`'s `==` holds `"cafe\u{301}"` and `"café"` equal.
package enum StoredSpelling {
    /// `nil` when the name of `key` at the UTF-8 offsets `component` is `stored`, byte for byte.
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

    /// Asks the volume for the name it stores for `descriptor`; `nil` when it agrees or on Linux.
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
