#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

/// The bytes of a file and their identity: its `fstat` before and after the read agree. A version
/// renamed away during the read is still whole, so an atomic writer never makes a read fail. How a
/// file that decisions depend on (a rules file, an attribute file) is read, with ``BoundedRead``.
package struct FileSnapshot: Sendable {
    /// The identity of the version read.
    package var identity: FileIdentity
    /// Its bytes, at most the limit asked for.
    package var bytes: [UInt8]

    /// Reads the regular file at `path`, at most `limit` bytes, again when it changed meanwhile;
    /// `expected` names what the file should be (`"a rules file"`) in a message.
    ///
    /// - Throws: ``FileReadError`` when the file cannot be used.
    package static func read(path: String, limit: Int, expected: String, attempts: Int = 3)
        throws(FileReadError) -> FileSnapshot
    {
        for _ in 0..<attempts {
            if let snapshot = try readOnce(path: path, limit: limit, expected: expected) {
                return snapshot
            }
        }
        throw FileReadError(
            kind: .changedWhileReading,
            message: "changed \(attempts) times while being read; replace it atomically (write a "
                + "temporary file, then rename it over this one)")
    }

    /// One attempt; `nil` when the file changed during it.
    private static func readOnce(path: String, limit: Int, expected: String) throws(FileReadError)
        -> FileSnapshot?
    {
        // O_NONBLOCK: opening a pipe must not wait for a writer; it is rejected below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotRead(errno) }
        defer { close(descriptor) }
        let before = try FileIdentity(descriptor: descriptor)
        guard before.isRegularFile else { throw before.notRegularFile(expected: expected) }
        guard before.size <= Int64(limit) else { throw .tooLarge(size: before.size, limit: limit) }
        // One byte more than expected: reading it means the file grew.
        let bytes = Array(try BoundedRead.bytes(of: descriptor, upTo: Int(before.size) + 1))
        let after = try FileIdentity(descriptor: descriptor)
        guard sameContents(before, after) else { return nil }
        guard Int64(bytes.count) == after.size else {
            // Nothing changed, yet the file held more than its size (a /proc or /sys file
            // reports 0 bytes): reading it again would find it "changing" every time.
            if after.size == 0 {
                throw FileReadError(
                    kind: .notRegularFile,
                    message: "is a special file whose size is not known (the system reports 0 bytes, "
                        + "and it holds more: a /proc or /sys file?), not a regular file; expected \(expected)"
                )
            }
            return nil
        }
        return FileSnapshot(identity: after, bytes: bytes)
    }

    /// Whether two identities of one open file show the same contents. Not the status-change time:
    /// renaming the file away, unlinking it (an atomic writer) or `chmod` moves it, not the bytes.
    private static func sameContents(_ a: FileIdentity, _ b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modifiedSeconds == b.modifiedSeconds && a.modifiedNanoseconds == b.modifiedNanoseconds
    }
}

/// What identifies one version of a file without reading it: any write, rename over the path,
/// truncation or `chmod` changes at least one field (limits: docs/policies.md#reload).
package struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mode: UInt32
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    var changedSeconds: Int64
    var changedNanoseconds: Int64

    /// Whether the file is a regular file.
    package var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }

    /// Whether the file is a directory.
    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }

    /// The error for a file of a kind a read does not accept, `nil` for one it does.
    func refusal(accepting: BoundedRead.Accepting, expected: String) -> FileReadError? {
        switch accepting {
        case .regularFiles:
            return isRegularFile ? nil : notRegularFile(expected: expected)
        case .anythingButDirectories:
            guard isDirectory else { return nil }
            return FileReadError(kind: .notRegularFile, message: "is a directory; expected \(expected)")
        }
    }

    /// The error for a file that is not a regular file, saying what it is instead of `expected`.
    package func notRegularFile(expected: String) -> FileReadError {
        let type =
            switch mode & UInt32(S_IFMT) {
            case UInt32(S_IFDIR): "directory"
            case UInt32(S_IFLNK): "symbolic link"
            case UInt32(S_IFIFO): "pipe"
            case UInt32(S_IFSOCK): "socket"
            case UInt32(S_IFCHR), UInt32(S_IFBLK): "device"
            default: "special file"
            }
        return FileReadError(
            kind: .notRegularFile, message: "is a \(type), not a regular file; expected \(expected)")
    }

    /// The identity `stat` gave.
    init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(status.st_size)
        mode = UInt32(status.st_mode)
        let times = CorePlatform.times(of: status)
        modifiedSeconds = Int64(times.modified.tv_sec)
        modifiedNanoseconds = Int64(times.modified.tv_nsec)
        changedSeconds = Int64(times.changed.tv_sec)
        changedNanoseconds = Int64(times.changed.tv_nsec)
    }

    /// The identity of the open file `descriptor`.
    init(descriptor: Int32) throws(FileReadError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(errno) }
        self.init(status)
    }

    /// The identity of the file at `path` now (following a symbolic link), as every decision
    /// checks it before deciding whether to read the file again.
    package init(path: [CChar]) throws(FileReadError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .cannotRead(errno) }
        self.init(status)
    }
}
