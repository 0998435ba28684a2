#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file opened for appending (`O_APPEND`): every `write` lands at the end, whoever else
/// appends, so a batch of whole lines written in one call is never interleaved with another
/// writer's lines. Reopens the path when the file was removed or replaced (log rotation).
/// Used by the writer thread only (not `Sendable`).
final class AppendOnlyFile {
    let path: String
    private var descriptor: Int32
    private var identity: (device: UInt64, inode: UInt64)

    /// Permissions of a new file: owner read and write, group read. A decision log names
    /// subjects and resources; it is not for everyone on the machine.
    static let mode: mode_t = 0o640

    /// Opens (creating if needed) `path` for appending.
    ///
    /// - Throws: ``DecisionLogError`` when it cannot be opened.
    init(path: String) throws(DecisionLogError) {
        self.path = path
        (descriptor, identity) = try Self.open(path)
    }

    deinit {
        close()
    }

    /// Closes the file; later appends fail with `EBADF`. Closing twice does nothing.
    func close() {
        if descriptor >= 0 { _ = Self.systemClose(descriptor) }
        descriptor = -1
    }

    private static func open(_ path: String) throws(DecisionLogError) -> (Int32, (UInt64, UInt64)) {
        let descriptor = systemOpen(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw DecisionLogError(operation: "open", path: path, code: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            _ = systemClose(descriptor)
            throw DecisionLogError(operation: "open", path: path, code: code)
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            _ = systemClose(descriptor)
            throw DecisionLogError(operation: "open", path: path, code: EISDIR)
        }
        return (descriptor, (UInt64(status.st_dev), UInt64(status.st_ino)))
    }

    /// Opens the path again when it no longer names the open file (removed, or renamed away
    /// and replaced by a log rotator), so lines go where a reader of the path looks.
    ///
    /// - Throws: ``DecisionLogError`` when the path cannot be opened; the old file stays open.
    func reopenIfMoved() throws(DecisionLogError) {
        var status = stat()
        if stat(path, &status) == 0, UInt64(status.st_dev) == identity.device,
            UInt64(status.st_ino) == identity.inode
        {
            return
        }
        let (newDescriptor, newIdentity) = try Self.open(path)
        _ = Self.systemClose(descriptor)
        descriptor = newDescriptor
        identity = newIdentity
    }

    /// Appends `bytes` with one `write` (more only if the system writes part of them).
    ///
    /// - Throws: ``DecisionLogError`` when the system refuses (disk full, I/O error).
    func append(_ bytes: [UInt8]) throws(DecisionLogError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw DecisionLogError(operation: "write", path: path, code: errno)
            }
            offset += written
        }
    }

    /// Asks the system to put what was written on the storage device.
    ///
    /// - Throws: ``DecisionLogError`` when it cannot.
    func synchronize() throws(DecisionLogError) {
        guard fsync(descriptor) == 0 else {
            let code = errno
            // A pipe or terminal cannot be synchronized; what was written has reached it.
            if code == EINVAL || code == EROFS || code == ENOTSUP { return }
            throw DecisionLogError(operation: "fsync", path: path, code: code)
        }
    }

    private static func systemClose(_ descriptor: Int32) -> Int32 {
        closeDescriptor(descriptor)
    }
}

/// The system's `close`, named apart from the type's members.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

/// The system's `open`, named apart from the type's members.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

/// The system's `write`, named apart from the type's members.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
