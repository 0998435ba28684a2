#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The bytes of a file together with the identity they belong to, read so that the two agree:
/// the open file's contents did not change between its `fstat` before and after the read.
///
/// The path is not looked at again: a version renamed away while it was read is still a whole
/// version (the next decision sees the new identity at the path and reads that), so a writer
/// that replaces the file atomically, however often, never makes a read fail.
struct FileSnapshot: Sendable {
    var identity: FileIdentity
    var bytes: [UInt8]

    /// Reads the regular file at `path`, at most `limit` bytes, retrying up to `attempts` times
    /// when it changes while being read.
    ///
    /// - Parameter name: The file's name in error messages.
    /// - Throws: ``RulesFileError`` when the file cannot be read, is not a regular file (or is
    ///   one whose size the system does not know, as a /proc file), is larger than `limit`, or
    ///   kept changing.
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
        guard descriptor >= 0 else { throw cannotRead(name, Errno(code: errno)) }
        defer { close(descriptor) }
        let before = try identity(FileIdentity.of(descriptor: descriptor), name)
        guard before.isRegularFile else {
            throw RulesFileError(
                file: name, kind: .notRegularFile,
                message: "is a \(before.typeName), not a regular file; expected a rules file")
        }
        try checkSize(before.size, name: name, limit: limit)
        // One byte more than expected: reading it means the file grew.
        var bytes = [UInt8](repeating: 0, count: Int(before.size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw cannotRead(name, Errno(code: errno))
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        let after = try identity(FileIdentity.of(descriptor: descriptor), name)
        guard Self.sameContents(before, after) else { return nil }
        guard Int64(count) == after.size else {
            // Nothing changed, yet the file held more than its size: the system does not know
            // its size, as for a /proc or /sys file (reported as 0 bytes). Reading it again would
            // only find it "changing" every time.
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

    /// Whether two identities of one open file show the same contents: same file, size and
    /// modification time. The status-change time is left out: it also moves when the file is
    /// renamed away or unlinked (an atomic writer replacing it) or its mode changes, none of
    /// which changes the bytes.
    private static func sameContents(_ a: FileIdentity, _ b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modifiedSeconds == b.modifiedSeconds && a.modifiedNanoseconds == b.modifiedNanoseconds
    }

    /// Throws when `size` is over `limit`.
    static func checkSize(_ size: Int64, name: String, limit: Int) throws {
        guard size <= Int64(limit) else {
            throw RulesFileError(
                file: name, kind: .tooLarge,
                message: "is \(size) bytes, larger than the limit of \(limit) bytes")
        }
    }

    static func cannotRead(_ name: String, _ error: Errno) -> RulesFileError {
        RulesFileError(file: name, kind: .cannotRead, message: "cannot read: \(error.text)")
    }

    private static func identity(_ result: Result<FileIdentity, Errno>, _ name: String) throws -> FileIdentity
    {
        switch result {
        case .success(let identity): identity
        case .failure(let error): throw cannotRead(name, error)
        }
    }
}

/// The system's `read`, named apart from `FileSnapshot/read(path:name:limit:attempts:)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
