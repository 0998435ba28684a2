import Foundation
import GatehouseCore

/// Listing follows no link and never leaves the root; what it skips is in docs/loaders.md.
extension DiskLoader: ResourceListing {
    /// The keys of the regular files under the folder `prefix` (`""` for the root), recursively,
    /// sorted by UTF-8 bytes.
    ///
    /// - Throws: ``DiskLoaderError`` when `prefix` breaks the key rules, names no folder, passes
    ///   through a link, or cannot be read.
    public func keys(under prefix: String) async throws -> [String] {
        try walk(under: prefix, plan: nil).keys
    }

    /// The keys `plan` permits (all without one), sorted, and how many folders were read.
    package func walk(under prefix: String, plan: AccessPlan?) throws -> (keys: [String], foldersRead: Int) {
        if !prefix.isEmpty, let reason = DiskKeyRules.check(prefix) {
            throw DiskLoaderError.invalidKey(key: prefix, reason: reason)
        }
        var keys: [String] = []
        var foldersRead = 0
        try withFolder(prefix, key: prefix) { (directory) throws(DiskLoaderError) in
            // `list` takes over a descriptor of its own (it closes it).
            let own = retryingOnInterrupt { openat(directory, ".", DiskFolder.flags) }
            guard own >= 0 else { throw .io(key: prefix, reason: errorMessage(errno)) }
            Self.list(own, prefix: prefix, plan: plan, into: &keys, foldersRead: &foldersRead)
        }
        return (keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, foldersRead)
    }

    /// Appends the keys in the folder `descriptor` and below, opening no folder `plan` rules out;
    /// closes `descriptor`.
    private static func list(
        _ descriptor: Int32, prefix: String, plan: AccessPlan?, into keys: inout [String],
        foldersRead: inout Int
    ) {
        guard let stream = fdopendir(descriptor) else {
            _ = close(descriptor)
            return
        }
        defer { _ = closedir(stream) }
        foldersRead += 1
        let directory = dirfd(stream)
        while let entry = readdir(stream) {
            // Read in place, up to its NUL: a `dirent` is only as long as its name, so copying
            // the whole `d_name` array reads past the buffer's end (AddressSanitizer saw it).
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = String(
                validatingCString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(
                    to: CChar.self))
            guard let name, name != ".", name != "..", !name.hasPrefix(temporaryPrefix) else { continue }
            let key = prefix.isEmpty ? name : prefix + "/" + name
            guard DiskKeyRules.check(key) == nil else { continue }
            var status = stat()
            guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                if plan?.permits(key) ?? true { keys.append(key) }
            case S_IFDIR:
                guard plan?.mayPermitNames(under: key) ?? true else { continue }
                let child = retryingOnInterrupt { openat(directory, name, DiskFolder.flags) }
                if child >= 0 { list(child, prefix: key, plan: plan, into: &keys, foldersRead: &foldersRead) }
            default:
                continue
            }
        }
    }
}

/// Opens no folder the plan rules out, so a subject who may read one folder of a thousand has
/// one folder read.
extension DiskLoader: FilteredListing {
    /// The keys under the folder `prefix` that `plan` permits, sorted by UTF-8 bytes.
    ///
    /// - Throws: ``DiskLoaderError``, as ``keys(under:)`` does.
    public func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [String] {
        try walk(under: prefix, plan: plan).keys
    }
}
