import Foundation

/// A regular file opened with `O_APPEND`, so lines written in one call never interleave with
/// another writer's; reopened when the path is rotated away. Writer thread only.
///
/// `O_NOFOLLOW` refuses a link; `O_NONBLOCK` (cleared once open) refuses a pipe with no reader
/// instead of blocking. A write that fails part-way is cut back to its last whole line.
final class AppendOnlyFile {
    /// One `write(2)`: the bytes written, or -1 with `errno`; tests fail it as a full disk does.
    typealias SystemWrite = @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int

    static let systemWrite: SystemWrite = { descriptor, bytes in
        write(descriptor, bytes.baseAddress!, bytes.count)
    }

    /// An append that failed: why, and how many of its bytes (whole lines) stayed in the file.
    struct Failure {
        var error: DecisionLogError
        var kept: Int
    }

    let path: String
    private let writeCall: SystemWrite
    private var descriptor: Int32
    private var identity: (device: UInt64, inode: UInt64)

    /// Permissions of a new file: a decision log names subjects and resources, not for everyone.
    static let mode: mode_t = 0o640

    /// Opens (creating if needed) the regular file at `path`; throws when it cannot, or is not one.
    init(path: String, write: @escaping SystemWrite = AppendOnlyFile.systemWrite) throws(DecisionLogError) {
        self.path = path
        self.writeCall = write
        (descriptor, identity) = try Self.openFile(path)
    }

    deinit {
        closeFile()
    }

    /// Closes the file; later appends fail with `EBADF`. Closing twice does nothing.
    func closeFile() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }

    private static func openFile(_ path: String) throws(DecisionLogError) -> (Int32, (UInt64, UInt64)) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode)
        guard descriptor >= 0 else {
            let code = errno
            var status = stat()
            if lstat(path, &status) == 0, let refusal = refusal(path, status.st_mode, code: code) {
                throw refusal
            }
            throw DecisionLogError(operation: "open", path: path, code: code)
        }
        func closing(_ code: Int32) -> DecisionLogError {
            _ = close(descriptor)
            return DecisionLogError(operation: "open", path: path, code: code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw closing(errno) }
        if let refusal = refusal(path, status.st_mode, code: EINVAL) {
            _ = close(descriptor)
            throw refusal
        }
        // O_NONBLOCK only kept the open from waiting for a pipe's reader; writes to the file
        // are ordinary ones.
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw closing(errno) }
        return (descriptor, (UInt64(status.st_dev), UInt64(status.st_ino)))
    }

    /// Whether ``init(path:write:)`` could open `path`, found without creating, opening or
    /// changing anything: an existing path must be a regular file (not a link) that may be
    /// written; a new one needs a folder that exists, is a folder, and may be written. Throws
    /// the error opening would, with the same message.
    static func checkOpening(_ path: String) throws(DecisionLogError) {
        var status = stat()
        if lstat(path, &status) == 0 {
            if let refusal = refusal(path, status.st_mode, code: EINVAL) { throw refusal }
            guard access(path, W_OK) == 0 else {
                throw DecisionLogError(operation: "open", path: path, code: errno)
            }
            return
        }
        let code = errno
        guard code == ENOENT else { throw DecisionLogError(operation: "open", path: path, code: code) }
        // The file would be created: in its folder, which must exist, be one, and take a new file.
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0 else {
            throw DecisionLogError(operation: "open", path: path, code: errno)
        }
        guard folderStatus.st_mode & S_IFMT == S_IFDIR else {
            throw DecisionLogError(operation: "open", path: path, code: ENOTDIR)
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw DecisionLogError(operation: "open", path: path, code: errno)
        }
    }

    /// The error when `mode` is not a regular file's.
    private static func refusal(_ path: String, _ mode: mode_t, code: Int32) -> DecisionLogError? {
        let kinds: [mode_t: String] = [
            S_IFIFO: "a named pipe (FIFO)", S_IFDIR: "a directory", S_IFCHR: "a character device",
            S_IFBLK: "a block device", S_IFSOCK: "a socket",
        ]
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK:
            return DecisionLogError(
                operation: "open", path: path, code: ELOOP,
                reason:
                    "it is a symbolic link, which a decision log never follows; give the path of the log file itself"
            )
        case let kind:
            return DecisionLogError(
                operation: "open", path: path, code: kind == S_IFDIR ? EISDIR : code,
                reason:
                    "it is \(kinds[kind] ?? "a special file"), not a regular file; a decision log is appended to a regular file only"
            )
        }
    }

    /// Opens the path again when it no longer names the open file; `lstat`, so a link put in
    /// its place is refused. On error the old file stays open.
    func reopenIfMoved() throws(DecisionLogError) {
        var status = stat()
        if lstat(path, &status) == 0, UInt64(status.st_dev) == identity.device,
            UInt64(status.st_ino) == identity.inode
        {
            return
        }
        let (newDescriptor, newIdentity) = try Self.openFile(path)
        _ = close(descriptor)
        descriptor = newDescriptor
        identity = newIdentity
    }

    /// Reopens if moved, then appends `bytes` (whole lines) with one `write` where it can; `nil`
    /// when every byte was written.
    func append(_ bytes: [UInt8]) -> Failure? {
        do {
            try reopenIfMoved()
        } catch {
            return Failure(error: error, kept: 0)
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                writeCall(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            }
            if written > 0 {
                offset += written
                continue
            }
            // A write of a non-empty buffer to a regular file that writes nothing and reports
            // no error is an I/O error as well.
            let code = written < 0 ? errno : EIO
            if code == EINTR { continue }
            return cutBack(
                bytes, written: offset, error: DecisionLogError(operation: "write", path: path, code: code))
        }
        return nil
    }

    /// The failure `error`, once the file is cut back to the last whole line of the `written` bytes.
    private func cutBack(_ bytes: [UInt8], written: Int, error: DecisionLogError) -> Failure {
        let kept = bytes[..<written].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        if kept == written { return Failure(error: error, kept: kept) }
        // With O_APPEND, the offset is the end of what this descriptor wrote last.
        let end = lseek(descriptor, 0, SEEK_CUR)
        guard end >= 0, ftruncate(descriptor, end - off_t(written - kept)) == 0 else {
            return Failure(
                error: DecisionLogError(operation: "truncate", path: path, code: errno), kept: kept)
        }
        return Failure(error: error, kept: kept)
    }

    /// `fsync`.
    func synchronize() throws(DecisionLogError) {
        guard fsync(descriptor) == 0 else {
            let code = errno
            // A file system that cannot synchronize has what was written all the same.
            if code == EINVAL || code == EROFS || code == ENOTSUP { return }
            throw DecisionLogError(operation: "fsync", path: path, code: code)
        }
    }
}
