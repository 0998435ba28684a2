import Foundation
import GatehouseCore

/// Loads files under a root directory; a key is a path relative to the root.
///
/// Keys may come from untrusted callers, so the loader enforces its rules itself, as
/// docs/loaders.md lists them: path rules, no symbolic link in any component (refused by the
/// kernel as it resolves the key, so a link swapped in at any moment is refused), regular files
/// only, the stored spelling on Apple platforms, and a size limit. Every refusal is a
/// ``DiskLoaderError``.
public struct DiskLoader: ResourceLoading {
    /// The directory that keys are relative to.
    public let root: URL
    /// The largest file, in bytes, that a load returns.
    public let maximumFileSize: Int

    /// The root path, the directory descriptor opened from it, and how keys are opened.
    let rootDirectory: RootDirectory

    /// Creates a loader for files under `root` (opened at the first load), refusing files larger
    /// than `maximumFileSize` bytes.
    public init(root: URL, maximumFileSize: Int = 64 << 20) {
        self.init(root: root, maximumFileSize: maximumFileSize, resolution: .preferred)
    }

    /// Tests choose both resolutions.
    package init(root: URL, maximumFileSize: Int = 64 << 20, resolution: PathResolution) {
        precondition(maximumFileSize >= 0, "maximumFileSize must not be negative")
        self.root = root
        self.maximumFileSize = maximumFileSize
        self.rootDirectory = RootDirectory(root, resolution: resolution)
    }

    /// ``PathResolution/componentWalk`` once `openat2` proved unavailable.
    package var resolution: PathResolution {
        rootDirectory.resolution
    }

    /// Returns the bytes of the regular file at `key` under the root.
    ///
    /// - Throws: ``DiskLoaderError``, saying which rule the key broke or what failed.
    public func load(_ key: String) async throws -> Data {
        var nameStart = 0
        if let reason = DiskKeyRules.check(key, lastComponent: &nameStart) {
            throw DiskLoaderError.invalidKey(key: key, reason: reason)
        }
        return try key.withCString { path in
            try rootDirectory.withRoot { (root) throws(DiskLoaderError) in
                let descriptor = try withExtendedLifetime(root.handle) { () throws(DiskLoaderError) in
                    try openKey(path, length: key.utf8.count, nameStart: nameStart, key: key, under: root)
                }
                defer { _ = close(descriptor) }
                let size = try regularFileSize(descriptor, key: key)
                return try readAll(descriptor, size: size, key: key)
            }
        }
    }

    /// Opens the key `path`'s directory, then the file in it (from `nameStart`), following no link.
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
            // On Linux an `O_PATH` descriptor, which may name a non-directory: the `fstatat` in it
            // then fails with `ENOTDIR`.
            #if canImport(Glibc)
                if let descriptor = try rootDirectory.openat2(copy.baseAddress!, under: root, key: key) {
                    return descriptor
                }
            #endif
            return try Self.openDirectories(
                copy.baseAddress!, length: nameStart - 1, key: key, root: root.handle.descriptor,
                flags: LoadersPlatform.directoryFlags, error: Self.componentError)
        }
        defer { _ = close(directory) }
        return try openFile(path + nameStart, in: directory, component: nameStart..<length, key: key)
    }

    /// The error for a component `name` (at `component` in `key`) in `parent` that `openat` or
    /// `fstatat` refused with `code`.
    typealias ComponentError = (
        _ code: Int32, _ parent: Int32, _ name: UnsafePointer<CChar>, _ component: Range<Int>, _ key: String
    ) -> DiskLoaderError

    /// Opens each component of `path` (a scratch copy: each `/` becomes a NUL, `path` is a prefix
    /// of `key`) with `flags` relative to the one before, following no link; returns the last.
    static func openDirectories(
        _ path: UnsafeMutablePointer<CChar>, length: Int, key: String, root: Int32, flags: Int32,
        error componentError: ComponentError
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
                    name, in: directory, flags: flags, component: component, key: key, error: componentError)
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

    /// Refuses a link, never waits on a fifo, never takes a terminal swapped in after the look.
    static let fileFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC

    /// Opens `name` only after `fstatat` found a regular file there: opening a fifo, even
    /// non-blocking, releases a blocked writer, and opening a device calls its driver. Something
    /// swapped in after the look is refused by ``fileFlags`` and the caller's `fstat`.
    private func openFile(
        _ name: UnsafePointer<CChar>, in directory: Int32, component: Range<Int>, key: String
    ) throws(DiskLoaderError) -> Int32 {
        var status = stat()
        guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw Self.componentError(errno, parent: directory, name: name, component: component, key: key)
        }
        if let refusal = Self.fileTypeError(status.st_mode, key: key) {
            throw refusal
        }
        return try Self.openComponent(
            name, in: directory, flags: Self.fileFlags, component: component, key: key,
            error: Self.componentError)
    }

    /// `openat`, retried on `EINTR`, refusing a name stored spelled otherwise (``StoredSpelling``).
    private static func openComponent(
        _ name: UnsafePointer<CChar>, in directory: Int32, flags: Int32, component: Range<Int>, key: String,
        error componentError: ComponentError
    ) throws(DiskLoaderError) -> Int32 {
        let opened = retryingOnInterrupt { openat(directory, name, flags) }
        guard opened >= 0 else {
            throw componentError(errno, directory, name, component, key)
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

    /// Reads to the end, within the limit (``BoundedRead``). A short read that reaches the size
    /// `fstat` reported ends the load; any other reads on until a read of 0.
    private func readAll(_ descriptor: Int32, size: Int, key: String) throws(DiskLoaderError) -> Data {
        let bytes: Data
        do {
            // One byte more than the limit lets a read tell "at the limit" from "over it".
            let ceiling = maximumFileSize < Int.max ? maximumFileSize + 1 : Int.max
            bytes = try BoundedRead.bytes(of: descriptor, upTo: ceiling, size: size)
        } catch {
            throw .io(key: key, reason: error.code.map(errorMessage) ?? error.message)
        }
        guard bytes.count <= maximumFileSize else {
            throw .tooLarge(key: key, size: bytes.count, limit: maximumFileSize)
        }
        return bytes
    }

    /// The ``ComponentError`` of a load.
    private static func componentError(
        _ code: Int32, parent: Int32, name: UnsafePointer<CChar>, component: Range<Int>, key: String
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
