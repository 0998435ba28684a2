#if GATEHOUSE_DARWIN_SHIM
    // Type-checked on Linux against the Darwin declarations of Tests/DarwinShim (.ci/run), not built.
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The name a volume stores for an open file or directory (UTF-8, no NUL), or why not.
enum StoredName: Equatable {
    case bytes([UInt8])
    case failed(errno: Int32)
    case malformed
}

/// The system calls of GatehouseLoaders that differ between Darwin and Linux, in one place: each
/// Darwin branch is type-checked on Linux against Apple's declarations (docs/platforms.md).
enum LoadersPlatform {}

#if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
    extension LoadersPlatform {
        /// How a directory on the way to a key's file is opened: Darwin has no `O_PATH`, and
        /// `O_DIRECTORY | O_NOFOLLOW` opens only a directory.
        static let directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC

        /// The name the volume stores for `descriptor`, from `fgetattrlist(ATTR_CMN_NAME)`
        /// (``StoredSpelling``): asked of the object opened, so nothing can be swapped in between
        /// (as Darwin's `realpath(3)` does). Not `F_GETPATH`, which builds a path from the name
        /// cache, which may keep the spelling a lookup used. A file with several hard links may be
        /// reported under another link's name: it is then refused.
        static func storedName(of descriptor: Int32) -> StoredName? {
            var request = attrlist()
            request.bitmapcount = UInt16(ATTR_BIT_MAP_COUNT)
            request.commonattr = attrgroup_t(ATTR_CMN_NAME)
            // The reply: its length (UInt32), an attrreference_t locating the name relative to
            // itself, then the name in UTF-8 and a NUL: at most 255 characters of up to 3 bytes.
            let headerSize = 4 + MemoryLayout<attrreference_t>.size
            return withUnsafeTemporaryAllocation(byteCount: headerSize + 255 * 3 + 1, alignment: 8) {
                reply -> StoredName in
                guard fgetattrlist(descriptor, &request, reply.baseAddress, reply.count, 0) == 0 else {
                    return .failed(errno: errno)
                }
                let reference = reply.loadUnaligned(fromByteOffset: 4, as: attrreference_t.self)
                let start = 4 + Int(reference.attr_dataoffset)
                var end = start + Int(reference.attr_length)
                guard start >= headerSize, end >= start, end <= reply.count else { return .malformed }
                while end > start && reply[end - 1] == 0 { end -= 1 }
                return .bytes(Array(reply[start..<end]))
            }
        }

        /// After `openat(parent, name, directoryFlags)` failed with `ENOTDIR`: whether `name` is
        /// a symbolic link (`O_DIRECTORY | O_NOFOLLOW` refuses one that way). Darwin has no
        /// `openat2` whose answer this must match, so `name` is looked at once more.
        static func isLinkAfterNotADirectory(parent: Int32, name: UnsafePointer<CChar>) -> Bool {
            var status = stat()
            return fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0
                && (status.st_mode & S_IFMT) == S_IFLNK
        }
    }
#else
    extension LoadersPlatform {
        /// How a directory on the way to a key's file is opened, also by `openat2`:
        /// `O_PATH | O_NOFOLLOW | O_CLOEXEC`. `O_PATH` opens nothing (a fifo gets no reader, a
        /// device's driver is not called) and opens a link as itself; the next `openat` or
        /// `fstatat` in it tells what it is. The Swift overlay does not export `O_PATH`; its value,
        /// octal 10000000, is the same on every architecture Swift supports on Linux.
        static let directoryFlags: Int32 = 0o10000000 | O_NOFOLLOW | O_CLOEXEC

        /// `nil`: Linux file systems compare names as bytes, so the loader does not ask.
        static func storedName(of descriptor: Int32) -> StoredName? {
            nil
        }

        /// After `openat(parent, name, directoryFlags)` failed with `ENOTDIR`: whether `parent`,
        /// opened with `O_PATH | O_NOFOLLOW`, is a symbolic link, as `openat2` would say (`ELOOP`),
        /// whatever the name holds now.
        static func isLinkAfterNotADirectory(parent: Int32, name: UnsafePointer<CChar>) -> Bool {
            var status = stat()
            return fstat(parent, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
        }
    }
#endif
