/// Whether a key spells each of its names byte for byte as the volume stores it.
///
/// APFS (the default on Apple platforms) and HFS+ find a name regardless of Unicode
/// normalization and, unless formatted case-sensitive, of case: `openat` of `avatars/alice.png`
/// opens `Avatars/Alice.png`. Gates match the key's text, so a deny on one spelling would not
/// cover the other. On Darwin, ``DiskLoader`` therefore asks the volume (``LoadersPlatform``), for each component it
/// opened, which name it stores, and refuses the key unless the two are the same bytes. The
/// comparison is on UTF-8 bytes: `String`'s `==` holds canonically equivalent text equal
/// (`"cafe\u{301}" == "café"`, `"\u{212A}" == "K"`), exactly the differences that matter here.
///
/// Linux file systems compare names as bytes (except case-folding directories and FAT, exFAT
/// or SMB mounts), so on Linux the loader does not ask.
package enum StoredSpelling {
    /// Compares the name of `key` at the UTF-8 offsets `component` with `stored`, the name the
    /// volume stores for what that name opened.
    ///
    /// - Returns: `nil` when the two are the same bytes; otherwise the error to throw,
    ///   ``DiskLoaderError/spellingMismatch(key:stored:)`` with the key's path up to this name
    ///   spelled as stored (the names before it matched already).
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

    /// Compares the name of `key` at the UTF-8 offsets `component` with the name the volume
    /// stores for `descriptor`, the file or directory that name opened
    /// (``LoadersPlatform/storedName(of:)``); on a platform whose volumes compare names as
    /// bytes, there is nothing to compare.
    ///
    /// - Returns: `nil` when the names are the same bytes or the platform does not ask; otherwise
    ///   the error to throw (``DiskLoaderError/io(key:reason:)`` when the volume does not say).
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
