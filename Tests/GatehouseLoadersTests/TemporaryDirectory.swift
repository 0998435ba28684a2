import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory for one test, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-loaders-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> URL {
        try write(relative, Data(text.utf8))
    }

    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    func makeDirectory(_ relative: String) throws {
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    /// Creates a symbolic link at `relative` whose target is `target`, verbatim.
    func symlink(_ relative: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: target)
    }

    func makeFifo(_ relative: String) throws {
        guard mkfifo(path(relative), 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }
}
