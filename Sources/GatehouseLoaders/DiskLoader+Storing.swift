import Foundation
import GatehouseCore

/// Writing and deleting under the same rules as loads (docs/loaders.md). A write goes to a
/// temporary file renamed over the key, so a link swapped in after the check is replaced as a
/// name: nothing is ever written through a link.
extension DiskLoader: ResourceStoring {
    /// Listings skip these names.
    static let temporaryPrefix = ".gatehouse-partial-"

    /// Writes `resource` to `key` atomically, creating no folder; throws ``DiskLoaderError``.
    public func store(_ resource: Data, for key: String) async throws {
        if let reason = DiskKeyRules.check(key) { throw DiskLoaderError.invalidKey(key: key, reason: reason) }
        guard resource.count <= maximumFileSize else {
            throw DiskLoaderError.tooLarge(key: key, size: resource.count, limit: maximumFileSize)
        }
        let (folder, name) = Self.split(key)
        try withFolder(folder, key: key) { (directory) throws(DiskLoaderError) in
            try Self.refuseLinkOrSpecialFile(name, in: directory, key: key)
            try Self.replace(name, in: directory, with: resource, folder: folder, key: key)
        }
    }

    /// Removes the regular file at `key`; throws ``DiskLoaderError`` for anything else there.
    public func remove(_ key: String) async throws {
        if let reason = DiskKeyRules.check(key) { throw DiskLoaderError.invalidKey(key: key, reason: reason) }
        let (folder, name) = Self.split(key)
        try withFolder(folder, key: key) { (directory) throws(DiskLoaderError) in
            var status = stat()
            guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw errno == ENOENT ? .notFound(key: key) : .io(key: key, reason: errorMessage(errno))
            }
            if let refusal = Self.fileTypeError(status.st_mode, key: key) { throw refusal }
            guard unlinkat(directory, name, 0) == 0 else {
                switch errno {
                case ENOENT: throw .notFound(key: key)
                case EISDIR, EPERM: throw .notARegularFile(key: key)
                case let code: throw .io(key: key, reason: errorMessage(code))
                }
            }
        }
    }

    /// Runs `body` with `folder` opened under the root.
    func withFolder<Result>(
        _ folder: String, key: String, _ body: (Int32) throws(DiskLoaderError) -> Result
    ) throws(DiskLoaderError) -> Result {
        try rootDirectory.withRoot { (root) throws(DiskLoaderError) in
            let directory = try DiskFolder.open(folder, key: key, under: root, rootDirectory: rootDirectory)
            defer { _ = close(directory) }
            return try body(directory)
        }
    }

    /// The key's folder (`""` for the root) and last component.
    static func split(_ key: String) -> (folder: String, name: String) {
        guard let slash = key.utf8.lastIndex(of: 0x2F) else { return ("", key) }
        let folder = String(key[..<slash])
        let name = String(key[key.utf8.index(after: slash)...])
        return (folder, name)
    }

    /// Throws when `name` in `directory` is a link or a special file (a write would replace it).
    private static func refuseLinkOrSpecialFile(_ name: String, in directory: Int32, key: String)
        throws(DiskLoaderError)
    {
        var status = stat()
        guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return }
            throw .io(key: key, reason: errorMessage(errno))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return  // a directory is refused by the rename, which is atomic
        case S_IFLNK: throw .outsideRoot(key: key)
        default: throw .notARegularFile(key: key)
        }
    }

    /// Writes a temporary file and renames it over `name`; removes it on any failure.
    private static func replace(
        _ name: String, in directory: Int32, with data: Data, folder: String, key: String
    ) throws(DiskLoaderError) {
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            temporary = temporaryPrefix + String(UInt64.random(in: .min ... .max), radix: 16)
            descriptor = retryingOnInterrupt {
                openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            }
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOENT
                ? .missingFolder(key: key, folder: folder) : .io(key: key, reason: errorMessage(code))
        }
        var renamed = false
        defer { if !renamed { _ = unlinkat(directory, temporary, 0) } }
        let writeFailure = writeAll(descriptor, data)
        let closeFailure = close(descriptor) == 0 ? nil : errno
        if let code = writeFailure ?? closeFailure {
            throw .io(key: key, reason: errorMessage(code))
        }
        guard renameat(directory, temporary, directory, name) == 0 else {
            switch errno {
            case EISDIR, ENOTEMPTY, EEXIST, ENOTDIR: throw .notARegularFile(key: key)
            case ENOENT: throw .missingFolder(key: key, folder: folder)
            case let code: throw .io(key: key, reason: errorMessage(code))
            }
        }
        renamed = true
    }

    /// The `errno` of a failed write, or `nil`.
    private static func writeAll(_ descriptor: Int32, _ data: Data) -> Int32? {
        data.withUnsafeBytes { bytes -> Int32? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, base + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return nil
        }
    }
}
