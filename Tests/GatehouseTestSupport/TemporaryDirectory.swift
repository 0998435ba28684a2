import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory for one test, removed by ``cleanUp()`` or when the value is released.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory inside `parent` (the system's temporary directory unless given).
    public init(in parent: URL = FileManager.default.temporaryDirectory) throws {
        url =
            parent
            .appendingPathComponent("gatehouse-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        cleanUp()
    }

    /// Removes the directory and everything in it.
    public func cleanUp() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `relative` inside the directory.
    public func path(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }

    /// The URL of `relative` inside the directory.
    public func file(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    /// Writes `text` to the file at `relative` in place, creating the folders on the way.
    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> URL {
        try write(relative, Data(text.utf8))
    }

    /// Writes `data` to the file at `relative` in place, creating the folders on the way.
    @discardableResult
    public func write(_ relative: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Replaces the file at `name` with `text` atomically (a new file renamed over the old one),
    /// creating the folders on the way.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
        return file
    }

    /// Creates the folder `relative` and any folders on the way.
    public func makeDirectory(_ relative: String) throws {
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    /// Creates a symbolic link at `relative` whose target is `target`, verbatim.
    public func symlink(_ relative: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: target)
    }

    /// Creates a named pipe (FIFO) at `relative`.
    public func makeFifo(_ relative: String) throws {
        guard mkfifo(path(relative), 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// Binds a Unix-domain socket at `relative`; the socket stays until `close` of the returned
    /// descriptor (the file stays until the directory is removed).
    public func makeSocket(_ relative: String) throws -> Int32 {
        #if canImport(Darwin)
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path(relative).utf8)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            guard bytes.count < buffer.count else { return false }
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
            return true
        }
        let bound =
            fits
            && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                }
            }
        guard bound else {
            close(descriptor)
            throw POSIXError(.ENAMETOOLONG)
        }
        return descriptor
    }
}

/// Runs `body` with a fresh directory under the system's temporary directory, removed when
/// `body` returns.
public func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let directory = try TemporaryDirectory()
    defer { directory.cleanUp() }
    return try await body(directory.url)
}
