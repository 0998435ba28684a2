#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// What identifies one version of a file without reading it: device, inode, size, type and
/// permission bits, and the modification and status-change times in nanoseconds. Any write,
/// rename over the path, truncation or `chmod` changes at least one of them.
///
/// Limit: two writes to the same inode that leave the size unchanged and land within one tick
/// of the file system's timestamp clock are indistinguishable.
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mode: UInt32
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    var changedSeconds: Int64
    var changedNanoseconds: Int64

    /// Whether the identity is that of a regular file.
    var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }

    /// A short name for the file type, for messages.
    var typeName: String {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): "regular file"
        case UInt32(S_IFDIR): "directory"
        case UInt32(S_IFLNK): "symbolic link"
        case UInt32(S_IFIFO): "pipe"
        case UInt32(S_IFSOCK): "socket"
        case UInt32(S_IFCHR), UInt32(S_IFBLK): "device"
        default: "special file"
        }
    }

    init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(status.st_size)
        mode = UInt32(status.st_mode)
        let times = PoliciesPlatform.times(of: status)
        modifiedSeconds = Int64(times.modified.tv_sec)
        modifiedNanoseconds = Int64(times.modified.tv_nsec)
        changedSeconds = Int64(times.changed.tv_sec)
        changedNanoseconds = Int64(times.changed.tv_nsec)
    }

    /// The identity of the open file `descriptor`, or the `errno` of `fstat`.
    static func of(descriptor: Int32) -> Result<FileIdentity, Errno> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(Errno(code: errno)) }
        return .success(FileIdentity(status))
    }
}

/// A system call's error number, with its text.
struct Errno: Error, Sendable, Hashable {
    var code: Int32

    /// The system's text for the error, such as "No such file or directory".
    var text: String { String(cString: strerror(code)) }
}
