#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The bytes of a file and their identity: its `fstat` before and after the read agree. A version
/// renamed away during the read is still whole, so an atomic writer never makes a read fail.
struct FileSnapshot: Sendable {
    var identity: FileIdentity
    var bytes: [UInt8]

    /// Reads the regular file at `path`, at most `limit` bytes, again when it changed meanwhile;
    /// throws a ``RulesFileError`` naming `name` when the file cannot be used.
    static func read(path: String, name: String, limit: Int, attempts: Int = 3) throws -> FileSnapshot {
        for _ in 0..<attempts {
            if let snapshot = try readOnce(path: path, name: name, limit: limit) {
                return snapshot
            }
        }
        throw RulesFileError(
            file: name, kind: .changedWhileReading,
            message: "changed \(attempts) times while being read; replace it atomically (write a "
                + "temporary file, then rename it over this one)")
    }

    /// One attempt; `nil` when the file changed during it.
    private static func readOnce(path: String, name: String, limit: Int) throws -> FileSnapshot? {
        // O_NONBLOCK: opening a pipe must not wait for a writer; it is rejected below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw cannotRead(name, errno) }
        defer { close(descriptor) }
        let before = try FileIdentity(descriptor: descriptor, name: name)
        guard before.isRegularFile else { throw before.notRegularFile(name) }
        guard before.size <= Int64(limit) else {
            throw RulesFileError(
                file: name, kind: .tooLarge,
                message: "is \(before.size) bytes, larger than the limit of \(limit) bytes")
        }
        // One byte more than expected: reading it means the file grew.
        guard let bytes = contents(of: descriptor, upTo: Int(before.size) + 1) else {
            throw cannotRead(name, errno)
        }
        let after = try FileIdentity(descriptor: descriptor, name: name)
        guard sameContents(before, after) else { return nil }
        guard Int64(bytes.count) == after.size else {
            // Nothing changed, yet the file held more than its size (a /proc or /sys file
            // reports 0 bytes): reading it again would find it "changing" every time.
            if after.size == 0 {
                throw RulesFileError(
                    file: name, kind: .notRegularFile,
                    message: "is a special file whose size is not known (the system reports 0 bytes, "
                        + "and it holds more: a /proc or /sys file?), not a regular file; expected a rules file"
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

    static func cannotRead(_ name: String, _ code: Int32) -> RulesFileError {
        RulesFileError(
            file: name, kind: .cannotRead, message: "cannot read: \(String(cString: strerror(code)))")
    }
}

/// Up to `limit` bytes of the open file `descriptor`, or `nil` with `errno` set when `read` fails.
private func contents(of descriptor: Int32, upTo limit: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(limit)
    var chunk = [UInt8](repeating: 0, count: min(limit, 1 << 16))
    while bytes.count < limit {
        let got = read(descriptor, &chunk, min(chunk.count, limit - bytes.count))
        if got < 0 && errno == EINTR { continue }
        guard got >= 0 else { return nil }
        if got == 0 { break }
        bytes += chunk[..<got]
    }
    return bytes
}

/// What identifies one version of a file without reading it: any write, rename over the path,
/// truncation or `chmod` changes at least one field (limits: docs/policies.md#reload).
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mode: UInt32
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    var changedSeconds: Int64
    var changedNanoseconds: Int64

    var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }

    func notRegularFile(_ name: String) -> RulesFileError {
        let type =
            switch mode & UInt32(S_IFMT) {
            case UInt32(S_IFDIR): "directory"
            case UInt32(S_IFLNK): "symbolic link"
            case UInt32(S_IFIFO): "pipe"
            case UInt32(S_IFSOCK): "socket"
            case UInt32(S_IFCHR), UInt32(S_IFBLK): "device"
            default: "special file"
            }
        return RulesFileError(
            file: name, kind: .notRegularFile,
            message: "is a \(type), not a regular file; expected a rules file")
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

    init(descriptor: Int32, name: String) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileSnapshot.cannotRead(name, errno) }
        self.init(status)
    }
}
