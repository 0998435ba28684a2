import Foundation

/// Opens a folder under a ``DiskLoader``'s root for a write, a removal or a listing, following
/// no link, as loads open a key. The caller closes the fresh descriptor (two listings never share
/// a directory position).
enum DiskFolder {
    static let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC

    /// Opens `folder` (a valid key, or `""` for the root) under `root`; `key` is named in errors.
    static func open(
        _ folder: String, key: String, under root: RootDirectory.Opened, rootDirectory: RootDirectory
    ) throws(DiskLoaderError) -> Int32 {
        let rootDescriptor = root.handle.descriptor
        if folder.isEmpty {
            let opened = withExtendedLifetime(root.handle) {
                retryingOnInterrupt { openat(rootDescriptor, ".", flags) }
            }
            guard opened >= 0 else { throw .io(key: key, reason: errorMessage(errno)) }
            return opened
        }
        let path = folder.utf8CString
        return try withExtendedLifetime(root.handle) { () throws(DiskLoaderError) -> Int32 in
            try withUnsafeTemporaryAllocation(of: CChar.self, capacity: path.count) {
                (copy) throws(DiskLoaderError) -> Int32 in
                _ = copy.initialize(from: path)
                #if canImport(Glibc)
                    if folder.utf8.contains(0x2F) {
                        let opened: Int32?
                        do throws(DiskLoaderError) {
                            opened = try rootDirectory.openat2(copy.baseAddress!, under: root, key: key)
                        } catch .notFound {
                            throw .missingFolder(key: key, folder: folder)
                        }
                        if let opened {
                            defer { _ = close(opened) }
                            return try reopenDirectory(opened, folder: folder, key: key)
                        }
                    }
                #endif
                return try DiskLoader.openDirectories(
                    copy.baseAddress!, length: path.count - 1, key: key, root: rootDescriptor, flags: flags,
                    error: componentError)
            }
        }
    }

    #if canImport(Glibc)
        /// The `O_PATH` descriptor `path` opened for reading, once `fstat` shows a directory.
        private static func reopenDirectory(_ path: Int32, folder: String, key: String)
            throws(DiskLoaderError)
            -> Int32
        {
            var status = stat()
            guard fstat(path, &status) == 0 else { throw .io(key: key, reason: errorMessage(errno)) }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: break
            case S_IFLNK: throw .outsideRoot(key: key)
            default: throw .missingFolder(key: key, folder: folder)
            }
            let opened = retryingOnInterrupt { openat(path, ".", flags) }
            guard opened >= 0 else { throw .io(key: key, reason: errorMessage(errno)) }
            return opened
        }
    #endif

    /// The ``DiskLoader/ComponentError`` of a folder: the folder is named up to the component.
    private static func componentError(
        _ code: Int32, parent: Int32, name: UnsafePointer<CChar>, component: Range<Int>, key: String
    ) -> DiskLoaderError {
        let walked = String(decoding: key.utf8.prefix(component.upperBound), as: UTF8.self)
        switch code {
        case ENOENT:
            return .missingFolder(key: key, folder: walked)
        case ENOTDIR, ELOOP, EMLINK:
            // O_DIRECTORY | O_NOFOLLOW refuses a link with ENOTDIR or ELOOP: tell a link apart.
            var status = stat()
            let isLink =
                fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0
                && (status.st_mode & S_IFMT) == S_IFLNK
            return isLink || code != ENOTDIR
                ? .outsideRoot(key: key) : .missingFolder(key: key, folder: walked)
        default:
            return .io(key: key, reason: errorMessage(code))
        }
    }
}
