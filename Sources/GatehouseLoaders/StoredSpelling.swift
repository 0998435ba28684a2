#if canImport(Darwin)
    import Darwin
#endif

/// Whether a key spells each of its names byte for byte as the volume stores it.
///
/// APFS (the default on Apple platforms) and HFS+ find a name regardless of Unicode
/// normalization and, unless formatted case-sensitive, of case: `openat` of `avatars/alice.png`
/// opens `Avatars/Alice.png`. Gates match the key's text, so a deny on one spelling would not
/// cover the other. On Darwin, ``DiskLoader`` therefore asks the volume, for each component it
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

    #if canImport(Darwin)
        /// Compares the name of `key` at the UTF-8 offsets `component` with the name the volume
        /// stores for `descriptor`, the file or directory that name opened.
        ///
        /// The stored name comes from `fgetattrlist(ATTR_CMN_NAME)` on the descriptor rather
        /// than from `fcntl(F_GETPATH)`:
        /// - it asks the file system for the name it stores, about the object that was opened:
        ///   no second lookup by name, so nothing can be swapped in between; Darwin's own
        ///   `realpath(3)` reads `ATTR_CMN_NAME` to learn how each component is stored;
        /// - `F_GETPATH` builds a whole path from the kernel's name cache, which may keep the
        ///   spelling a lookup used; and its leading part need not be the root's path (a root
        ///   renamed between two calls, firmlinks), so comparing its tail is more fragile than
        ///   one name per component.
        ///
        /// A file with several hard links may be reported under another link's name: it is then
        /// refused, never loaded under a name it does not have there.
        ///
        /// - Returns: `nil` when the names are the same bytes; otherwise the error to throw
        ///   (``DiskLoaderError/io(key:reason:)`` when the volume does not say).
        static func mismatch(of descriptor: Int32, in key: String, component: Range<Int>) -> DiskLoaderError?
        {
            var request = attrlist()
            request.bitmapcount = UInt16(ATTR_BIT_MAP_COUNT)
            request.commonattr = attrgroup_t(ATTR_CMN_NAME)
            // The reply: its length (UInt32), an attrreference_t locating the name relative to
            // itself, then the name in UTF-8 and a NUL: at most 255 characters of up to 3 bytes.
            let headerSize = 4 + MemoryLayout<attrreference_t>.size
            return withUnsafeTemporaryAllocation(byteCount: headerSize + 255 * 3 + 1, alignment: 8) {
                reply -> DiskLoaderError? in
                guard fgetattrlist(descriptor, &request, reply.baseAddress, reply.count, 0) == 0 else {
                    return .io(
                        key: key, reason: "the volume did not report a stored name: \(errorMessage(errno))")
                }
                let reference = reply.loadUnaligned(fromByteOffset: 4, as: attrreference_t.self)
                let start = 4 + Int(reference.attr_dataoffset)
                var end = start + Int(reference.attr_length)
                guard start >= headerSize, end >= start, end <= reply.count else {
                    return .io(key: key, reason: "the volume reported a malformed stored name")
                }
                while end > start && reply[end - 1] == 0 { end -= 1 }
                return mismatch(in: key, component: component, stored: reply[start..<end])
            }
        }
    #endif
}
