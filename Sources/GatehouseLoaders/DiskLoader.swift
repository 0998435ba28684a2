import Foundation
import GatehouseCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

/// Loads files under a root directory; a key is a path relative to the root.
///
/// Keys may come from untrusted callers, so the loader enforces its rules itself (docs/loaders.md):
/// - **Path rules**: a key that is empty, absolute, too long, ends with `/`,
///   holds `//`, `.`, `..`, a backslash or a control character, or is not NFC, is
///   ``DiskLoaderError/invalidKey(key:reason:)``.
/// - **No symbolic links** in the key (``DiskLoaderError/outsideRoot(key:)``), refused by the
///   kernel as it resolves the key, so a link swapped in at any moment is refused: one `openat2`
///   with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS` for the key's directory
///   where Linux offers it, else one `openat(…, O_NOFOLLOW)` per component; the file itself is
///   opened with `O_NOFOLLOW`. The root may be reached through links.
/// - **Regular files only** (``DiskLoaderError/notARegularFile(key:)``): `fstatat` must find a
///   regular file before it is opened, so a fifo gets no reader and a device's driver is not
///   called; the open is non-blocking and `fstat` checks again before a byte is read, so
///   something swapped in between is at worst opened, never read.
/// - **Spelling** (Apple platforms): each name opened must be the bytes the volume stores
///   (``DiskLoaderError/spellingMismatch(key:stored:)``), since APFS finds names regardless of
///   case and normalization.
/// - **Size limit**: a file over `maximumFileSize` is refused before it is read
///   (``DiskLoaderError/tooLarge(key:size:limit:)``), and one that grows never yields more.
/// - **The root** is opened at the first load and kept open. When a key is not found, the loader
///   checks that the root path still names that directory: a removed root is
///   ``DiskLoaderError/rootUnavailable(root:reason:)``, a replaced one is reopened once.
public struct DiskLoader: ResourceLoading {
    /// The directory that keys are relative to.
    public let root: URL
    /// The largest file, in bytes, that a load returns.
    public let maximumFileSize: Int

    /// The root path, the directory descriptor opened from it, and how keys are opened.
    let rootDirectory: RootDirectory

    /// Creates a loader for files under `root`, refusing files larger than `maximumFileSize` bytes.
    ///
    /// The root need not exist yet: it is opened at the first load.
    public init(root: URL, maximumFileSize: Int = 64 << 20) {
        self.init(root: root, maximumFileSize: maximumFileSize, resolution: .preferred)
    }

    /// Creates a loader that opens keys as `resolution` says (tests choose both ways).
    package init(root: URL, maximumFileSize: Int = 64 << 20, resolution: PathResolution) {
        precondition(maximumFileSize >= 0, "maximumFileSize must not be negative")
        self.root = root
        self.maximumFileSize = maximumFileSize
        self.rootDirectory = RootDirectory(root, resolution: resolution)
    }

    /// How the loader opens keys now: ``PathResolution/componentWalk`` once `openat2` proved unavailable.
    package var resolution: PathResolution {
        rootDirectory.resolution
    }

    /// Returns the bytes of the regular file at `key` under the root.
    ///
    /// - Throws: ``DiskLoaderError``, saying which rule the key broke or what failed.
    public func load(_ key: String) async throws -> Data {
        try loadSynchronously(key)
    }

    /// The synchronous load: validates the key, opens it under the root, reads it.
    private func loadSynchronously(_ key: String) throws(DiskLoaderError) -> Data {
        var nameStart = 0
        if let reason = DiskKeyRules.check(key, lastComponent: &nameStart) {
            throw .invalidKey(key: key, reason: reason)
        }
        let result = key.withCString { path in
            Result { () throws(DiskLoaderError) -> Data in
                try rootDirectory.withRoot { (root) throws(DiskLoaderError) in
                    try readFile(path, length: key.utf8.count, nameStart: nameStart, key: key, under: root)
                }
            }
        }
        return try result.get()
    }

    /// Opens and reads the file at `path` (the key, NUL-terminated, its last component starting
    /// at `nameStart`) under `root`.
    private func readFile(
        _ path: UnsafePointer<CChar>, length: Int, nameStart: Int, key: String,
        under root: RootDirectory.Opened
    ) throws(DiskLoaderError) -> Data {
        let descriptor = try withExtendedLifetime(root.handle) { () throws(DiskLoaderError) in
            try openKey(path, length: length, nameStart: nameStart, key: key, under: root)
        }
        defer { _ = close(descriptor) }
        let size = try regularFileSize(descriptor, key: key)
        return try readAll(descriptor, size: size, key: key)
    }

    /// Opens the file of `path` (its last component starting at `nameStart`) under `root`
    /// without following links: first the directory it lies in, then the file in it.
    private func openKey(
        _ path: UnsafePointer<CChar>, length: Int, nameStart: Int, key: String,
        under root: RootDirectory.Opened
    ) throws(DiskLoaderError) -> Int32 {
        guard nameStart > 0 else {
            return try openFile(path, in: root.handle.descriptor, component: 0..<length, key: key)
        }
        let directory = try withUnsafeTemporaryAllocation(of: CChar.self, capacity: nameStart) {
            (copy) throws(DiskLoaderError) -> Int32 in
            // The directory's path, NUL-terminated where the last "/" was.
            copy.baseAddress!.initialize(from: path, count: nameStart - 1)
            copy[nameStart - 1] = 0
            return try openDirectory(copy.baseAddress!, length: nameStart - 1, key: key, under: root)
        }
        defer { _ = close(directory) }
        return try openFile(path + nameStart, in: directory, component: nameStart..<length, key: key)
    }

    /// Opens the directory `path` (a scratch copy of the key up to its last `/`) under `root`
    /// without following links. On Linux the result is an `O_PATH` descriptor, which may name
    /// something other than a directory: the `fstatat` in it then fails with `ENOTDIR`, and
    /// ``componentError(_:parent:name:key:)`` tells a link from the rest.
    private func openDirectory(
        _ path: UnsafeMutablePointer<CChar>, length: Int, key: String, under root: RootDirectory.Opened
    ) throws(DiskLoaderError) -> Int32 {
        #if canImport(Glibc)
            if case .openat2(let call) = root.resolution {
                switch Openat2.open(path, under: root.handle.descriptor, key: key, call: call) {
                case .opened(let descriptor):
                    return descriptor
                case .failed(let error):
                    throw error
                case .unsupported:
                    rootDirectory.useComponentWalk()
                case .walkOnce:
                    break
                }
            }
        #endif
        return try openDirectories(path, length: length, key: key, root: root.handle.descriptor)
    }

    /// Opens each component of `path` (a scratch copy: each `/` becomes a NUL) under `root`
    /// without following links, each relative to the one before; returns the last one.
    private func openDirectories(
        _ path: UnsafeMutablePointer<CChar>, length: Int, key: String, root: Int32
    ) throws(DiskLoaderError) -> Int32 {
        var directory = root
        var name = path
        let end = path + length
        while true {
            let separator = memchr(name, 0x2F, end - name)?.assumingMemoryBound(to: CChar.self)
            separator?.pointee = 0
            let component = (name - path)..<((separator ?? end) - path)
            let opened: Int32
            do throws(DiskLoaderError) {
                opened = try openComponent(
                    name, in: directory, flags: LoadersPlatform.directoryFlags, component: component, key: key
                )
            } catch {
                if directory != root { _ = close(directory) }
                throw error
            }
            if directory != root { _ = close(directory) }
            guard let separator else { return opened }
            directory = opened
            name = separator + 1
        }
    }

    /// How the file of a key is opened, once `fstatat` found a regular file under its name: for
    /// reading, not through a link (`ELOOP`), never waiting (a fifo swapped in without a writer),
    /// never becoming the controlling terminal (a terminal swapped in).
    static let fileFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC

    /// Opens the file `name` in `directory` for reading, only after `fstatat` (not following a
    /// link) found a regular file there: opening a fifo, even non-blocking, would release a writer
    /// blocked opening it, and opening a device calls its driver (a watchdog acts on open).
    ///
    /// The name may change between the look and the open: ``fileFlags`` refuse a link swapped in
    /// and never block, and the caller's `fstat` refuses anything but a regular file before the
    /// first `read`. `component` is where `name` lies in `key`'s UTF-8 bytes.
    private func openFile(
        _ name: UnsafePointer<CChar>, in directory: Int32, component: Range<Int>, key: String
    ) throws(DiskLoaderError) -> Int32 {
        var status = stat()
        guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw Self.componentError(errno, parent: directory, name: name, key: key)
        }
        if let refusal = Self.fileTypeError(status.st_mode, key: key) {
            throw refusal
        }
        return try openComponent(name, in: directory, flags: Self.fileFlags, component: component, key: key)
    }

    /// `openat(directory, name, flags)`, retried on `EINTR`; on Darwin a name the volume stores
    /// spelled otherwise is refused (``StoredSpelling``).
    private func openComponent(
        _ name: UnsafePointer<CChar>, in directory: Int32, flags: Int32, component: Range<Int>, key: String
    ) throws(DiskLoaderError) -> Int32 {
        let opened = retryingOnInterrupt { openat(directory, name, flags) }
        guard opened >= 0 else {
            throw Self.componentError(errno, parent: directory, name: name, key: key)
        }
        if let mismatch = StoredSpelling.mismatch(of: opened, in: key, component: component) {
            _ = close(opened)
            throw mismatch
        }
        return opened
    }

    /// Why a file of type `mode` (an `st_mode`) cannot be loaded; `nil` for a regular file.
    static func fileTypeError(_ mode: mode_t, key: String) -> DiskLoaderError? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK: return .outsideRoot(key: key)
        default: return .notARegularFile(key: key)
        }
    }

    /// The size of `descriptor` when it is a regular file within the size limit; otherwise throws.
    private func regularFileSize(_ descriptor: Int32, key: String) throws(DiskLoaderError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .io(key: key, reason: errorMessage(errno))
        }
        if let refusal = Self.fileTypeError(status.st_mode, key: key) {
            throw refusal
        }
        let size = Int(status.st_size)
        guard size <= maximumFileSize else {
            throw .tooLarge(key: key, size: size, limit: maximumFileSize)
        }
        return size
    }

    /// Reads `descriptor` into a buffer sized from `fstat`, growing it (up to the limit) when the
    /// file grew since. A regular file returns fewer bytes than asked only at its end, so a short
    /// read that reaches exactly the size `fstat` reported ends the load; any other short read
    /// (the file shrank, a pseudo-file) reads on until a read of 0.
    private func readAll(_ descriptor: Int32, size: Int, key: String) throws(DiskLoaderError) -> Data {
        // One byte more than the limit lets a read tell "at the limit" from "over it".
        let ceiling = maximumFileSize < Int.max ? maximumFileSize + 1 : Int.max
        var capacity = Swift.min(size, maximumFileSize) + 1
        guard var buffer = malloc(capacity) else { throw .io(key: key, reason: "out of memory") }
        var count = 0
        while true {
            if count == capacity {
                guard capacity < ceiling else {
                    free(buffer)
                    throw .tooLarge(key: key, size: count, limit: maximumFileSize)
                }
                capacity = Swift.min(Swift.max(capacity * 2, 4096), ceiling)
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw .io(key: key, reason: "out of memory")
                }
                buffer = grown
            }
            let asked = capacity - count
            let got = read(descriptor, buffer + count, asked)
            if got > 0 {
                count += got
                if got < asked && count == size { break }
            } else if got == 0 {
                break
            } else if errno != EINTR {
                let code = errno
                free(buffer)
                throw .io(key: key, reason: errorMessage(code))
            }
        }
        if count == 0 {
            free(buffer)
            return Data()
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// The error for a component `name` in `parent` that `openat` or `fstatat` refused with `code`.
    private static func componentError(
        _ code: Int32, parent: Int32, name: UnsafePointer<CChar>, key: String
    ) -> DiskLoaderError {
        switch code {
        case ELOOP, EMLINK:
            return .outsideRoot(key: key)
        case ENOTDIR:
            let isLink = LoadersPlatform.isLinkAfterNotADirectory(parent: parent, name: name)
            return isLink ? .outsideRoot(key: key) : .notFound(key: key)
        case ENOENT:
            return .notFound(key: key)
        case ENXIO, EOPNOTSUPP:
            return .notARegularFile(key: key)
        default:
            return .io(key: key, reason: errorMessage(code))
        }
    }
}
