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
/// The loader is meant to be given keys from untrusted callers, so it enforces its rules itself:
/// - **Path rules**: a key is refused with ``DiskLoaderError/invalidKey(key:reason:)`` when it is
///   empty, longer than 1024 UTF-8 bytes, absolute (starts with `/`), ends with `/`, contains `//`,
///   a `.` or `..` component, a component longer than 255 bytes, a backslash, or a control
///   character (U+0000–U+001F, U+007F, U+0080–U+009F).
/// - **No symbolic links**: no component of the key may be a symbolic link, whether it points
///   inside or outside the root (``DiskLoaderError/outsideRoot(key:)``). The root itself may be
///   reached through links. The kernel refuses a link as it resolves the key, so there is no
///   check-then-use gap: a link swapped in at any moment is refused. The directory a key's file
///   lies in is the root for a key of one component; for a key of several it is opened with one
///   `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS` on Linux 5.6
///   and later (GNU C library), else one component at a time, each relative to the previous
///   one with `O_NOFOLLOW`. The file is then opened relative to that directory with
///   `O_NOFOLLOW`. Both ways give the same error, even for a link swapped in mid-load.
/// - **Regular files only**: directories, fifos, devices and sockets are refused
///   (``DiskLoaderError/notARegularFile(key:)``) without being opened: `fstatat` (not following a
///   link) must find a regular file under the file's name before it is opened. So a fifo gets no
///   reader (a writer blocked opening it stays blocked) and a device's driver is not called. The
///   name may change between that look and the open, so the open is non-blocking (`O_NONBLOCK`,
///   `O_NOCTTY`) and `fstat` on the opened descriptor must still find a regular file before a
///   byte is read: a fifo or device swapped in between is at worst opened, never read.
///   Directories on the way are opened with `O_PATH` on Linux, which opens nothing either.
/// - **Spelling** (Apple platforms): a volume that finds names regardless of case or Unicode
///   normalization (APFS) would open `Avatars/Alice.png` for the key `avatars/alice.png`. Each
///   name opened is compared, byte for byte, with the name the volume stores
///   (`fgetattrlist(ATTR_CMN_NAME)`); a key that differs is refused
///   (``DiskLoaderError/spellingMismatch(key:stored:)``). Linux does not check (its file
///   systems compare bytes, except case-folding directories and FAT, exFAT or SMB mounts).
/// - **Size limit**: a file larger than `maximumFileSize` is refused before it is read
///   (``DiskLoaderError/tooLarge(key:size:limit:)``); a file that grows while it is read never
///   yields more than the limit.
/// - **The root**: opened (following links in the root path) at the first load and kept open,
///   so a load opens only its key's components. When a key is not found, the loader checks that
///   the root path still names the directory it holds: if the root was removed, the load throws
///   ``DiskLoaderError/rootUnavailable(root:reason:)``; if another directory replaced it, the
///   loader reopens the path and tries once more. Until such a miss, loads keep reading the
///   directory first opened, even if its path was renamed.
///
/// Reading is synchronous (`fstatat`, `openat`, `fstat`, then `read` into a buffer of the size
/// `fstat` reported plus one byte, until the file ends), the right cost for the small files it
/// is meant for: a key of one component costs five system calls, one more than `open`, `read`
/// to the end and `close` of the same file (the look before the open).
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

    /// How the loader opens keys now: ``PathResolution/componentWalk`` once `openat2` proved
    /// unavailable.
    package var resolution: PathResolution {
        rootDirectory.resolution
    }

    /// Returns the bytes of the regular file at `key` under the root.
    ///
    /// - Throws: ``DiskLoaderError``, saying which rule the key broke or what failed.
    @inlinable
    public func load(_ key: String) async throws -> Data {
        try loadSynchronously(key)
    }

    /// The synchronous load: validates the key, opens it under the root, reads it. Callers
    /// inline ``load(_:)`` down to this call, without an asynchronous frame of its own.
    @usableFromInline
    func loadSynchronously(_ key: String) throws(DiskLoaderError) -> Data {
        let length = key.utf8.count
        guard length <= DiskKeyRules.maximumKeyLength else {
            throw .invalidKey(
                key: key,
                reason: "it is \(length) bytes long, more than \(DiskKeyRules.maximumKeyLength)")
        }
        // The key as a C string: the string's own storage, or a copy on the stack for a short one.
        let result = key.withCString { path in
            Result { () throws(DiskLoaderError) -> Data in try loadKey(at: path, length: length, key: key) }
        }
        return try result.get()
    }

    /// Checks the key (`length` bytes at `path`, then a NUL) and loads it.
    private func loadKey(at path: UnsafePointer<CChar>, length: Int, key: String) throws(DiskLoaderError)
        -> Data
    {
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(path).assumingMemoryBound(to: UInt8.self), count: length)
        var nameStart = 0
        if let reason = DiskKeyRules.check(bytes, lastComponent: &nameStart) {
            throw .invalidKey(key: key, reason: reason)
        }
        let root = try rootDirectory.opened()
        do throws(DiskLoaderError) {
            return try readFile(path, length: length, nameStart: nameStart, key: key, under: root)
        } catch {
            guard case .notFound = error else { throw error }
            // Nothing there: make sure the root path still names the directory we hold.
            switch rootDirectory.recheck(root.handle) {
            case .same:
                throw error
            case .missing(let reason):
                throw .rootUnavailable(root: rootDirectory.displayPath, reason: reason)
            case .replaced:
                return try readFile(
                    path, length: length, nameStart: nameStart, key: key, under: rootDirectory.opened())
            }
        }
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
    /// without following links: first the directory it lies in (the root itself for a key of one
    /// component; else, for a key of several, its path up to the last `/` with one `openat2`
    /// when `root` says so, or one `openat` per component), then the file in that directory with
    /// ``openFile(_:in:component:key:)``.
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

    /// Opens the directory `path` (a scratch copy of the key up to its last `/`, `length` bytes,
    /// NUL-terminated) under `root` without following links: with one `openat2` when `root` says
    /// so (``Openat2``), else one component at a time. On Linux the result is an `O_PATH`
    /// descriptor, which may name something other than a directory: the `fstatat` in it then
    /// fails with `ENOTDIR`, and ``componentError(_:parent:name:key:)`` tells a link from the rest.
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

    /// Opens each component of `path` (components separated by `/`, NUL-terminated, a scratch
    /// copy: each `/` becomes a NUL) under `root` without following links, each relative to the
    /// one before; returns the last one.
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
                opened = try openDirectoryComponent(name, in: directory, component: component, key: key)
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

    /// How a directory on the way to a key's file is opened (``LoadersPlatform/directoryFlags``):
    /// with `O_PATH` on Linux, `O_DIRECTORY | O_NOFOLLOW` on Darwin.
    static let directoryFlags = LoadersPlatform.directoryFlags

    /// How the file of a key is opened, once `fstatat` found a regular file under its name: for
    /// reading, not through a link (`ELOOP`), never waiting (a fifo swapped in without a writer),
    /// never becoming the controlling terminal (a terminal swapped in).
    static let fileFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC

    /// Opens `name` in `directory`, a directory on the way to a key's file, without following a
    /// link (``directoryFlags``). `component` is where `name` lies in `key`'s UTF-8 bytes; on
    /// Darwin the name opened is compared with the name the volume stores (``StoredSpelling``).
    private func openDirectoryComponent(
        _ name: UnsafePointer<CChar>, in directory: Int32, component: Range<Int>, key: String
    ) throws(DiskLoaderError) -> Int32 {
        try openComponent(name, in: directory, flags: Self.directoryFlags, component: component, key: key)
    }

    /// Opens the file `name` in `directory` for reading, only after `fstatat` (not following a
    /// link) found a regular file under that name: a link is ``DiskLoaderError/outsideRoot(key:)``,
    /// anything else ``DiskLoaderError/notARegularFile(key:)``, and neither is opened. Opening a
    /// fifo for reading, even non-blocking, would release a writer blocked opening it (which then
    /// meets a closed pipe at its first write), and opening a device calls its driver (a
    /// watchdog acts on open).
    ///
    /// The name may change between the look and the open: ``fileFlags`` refuse a link swapped in
    /// (`ELOOP`) and never block, and the caller's `fstat` on the opened descriptor refuses
    /// anything but a regular file before the first `read`. So something swapped in is at worst
    /// opened, never read. `component` is where `name` lies in `key`'s UTF-8 bytes (for
    /// ``StoredSpelling`` on Darwin).
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

    /// `openat(directory, name, flags)`, retried on `EINTR`; a failure is the component's error
    /// for `key`, and on Darwin a name the volume stores spelled otherwise is refused
    /// (``StoredSpelling``) and the descriptor closed.
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

    /// Why a file of type `mode` (an `st_mode`) cannot be loaded: `nil` for a regular file,
    /// ``DiskLoaderError/outsideRoot(key:)`` for a link, else
    /// ``DiskLoaderError/notARegularFile(key:)``.
    private static func fileTypeError(_ mode: mode_t, key: String) -> DiskLoaderError? {
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
    /// file grew since.
    ///
    /// Only a read of 0 bytes proves the end of a file in general. But a regular file returns
    /// fewer bytes than asked only at its end, so a short read that brings the bytes read to
    /// exactly the size `fstat` reported ends the load too: the file as `fstat` saw it, without a
    /// second read to find the end. Any other short read (the file shrank, or a pseudo-file
    /// reports a size unlike its content) reads on until a read of 0.
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

    /// The error for a component `name` in `parent` that could not be opened, or looked at with
    /// `fstatat`, with `errno` `code`.
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
