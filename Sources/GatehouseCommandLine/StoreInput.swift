import Foundation

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The bytes `gatehouse store` writes, read up to one byte past ``limit``, so an endless input
/// (`/dev/zero`) costs at most the limit in memory.
enum StoreInput {
    /// The most `store` reads: 64 MiB, the disk loader's default `maximumFileSize`.
    static let limit = 64 << 20

    /// What reading a source found.
    enum Outcome: Equatable {
        /// The source ended within the limit: all it gave.
        case complete([UInt8])
        /// The source gave more than the limit; reading stopped one byte past it.
        case overLimit
        /// A read failed with this `errno`.
        case failed(Int32)
    }

    /// Why the input cannot be stored, and the exit status that says so.
    struct Failure: Error {
        var message: String
        var status: ExitStatus
    }

    /// Drains `source` (as `read(2)`) until it ends, fails, or gives `limit + 1` bytes, never more.
    static func drain(limit: Int, _ source: (UnsafeMutableRawBufferPointer) -> Int) -> Outcome {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let got = chunk.withUnsafeMutableBytes { buffer in
                source(UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(wanted)))
            }
            if got < 0 { return .failed(errno) }
            if got == 0 { return .complete(bytes) }
            bytes.append(contentsOf: chunk[..<got])
            if bytes.count > limit { return .overLimit }
        }
    }

    /// The bytes of the file at `path`, or of standard input when `path` is `nil`.
    static func contents(of path: String?, limit: Int = limit) throws(Failure) -> Data {
        let name = path ?? "standard input"
        let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? STDIN_FILENO
        guard descriptor >= 0 else { throw cannotRead(name, errno) }
        defer { if path != nil { close(descriptor) } }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw cannotRead(name, errno) }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            throw Failure(message: "cannot read \(name): it is a folder; expected a file", status: .usage)
        }
        let outcome = drain(limit: limit) { buffer in
            while true {
                let got = read(descriptor, buffer.baseAddress!, buffer.count)
                if got >= 0 || errno != EINTR { return got }
            }
        }
        switch outcome {
        case .complete(let bytes):
            return Data(bytes)
        case .failed(let code):
            throw cannotRead(name, code)
        case .overLimit:
            let input = path.map { "the input \($0)" } ?? "standard input"
            throw Failure(
                message: "\(input)\(kind(of: type)) is larger than the limit of \(limit) bytes that store "
                    + "reads; nothing was stored",
                status: .error)
        }
    }

    /// ` (a character device)` and the like for a file that is not a regular file, else empty.
    private static func kind(of type: mode_t) -> String {
        switch type {
        case S_IFCHR: " (a character device)"
        case S_IFBLK: " (a block device)"
        case S_IFIFO: " (a pipe)"
        case S_IFSOCK: " (a socket)"
        default: ""
        }
    }

    private static func cannotRead(_ name: String, _ code: Int32) -> Failure {
        Failure(message: "cannot read \(name): \(String(cString: strerror(code)))", status: .usage)
    }
}
