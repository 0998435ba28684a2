import Foundation
import GatehouseCore

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The bytes `gatehouse store` writes, read with ``BoundedRead`` up to one byte past ``limit``, so
/// an endless input (`/dev/zero`) costs at most the limit in memory.
enum StoreInput {
    /// The most `store` reads: 64 MiB, the disk loader's default `maximumFileSize`.
    static let limit = 64 << 20

    /// Why the input cannot be stored, and the exit status that says so.
    struct Failure: Error {
        var message: String
        var status: ExitStatus
    }

    /// The bytes of the file at `path`, or of standard input when `path` is `nil`.
    static func contents(of path: String?, limit: Int = limit) throws(Failure) -> Data {
        let name = path ?? "standard input"
        do {
            let expected = "a file to store"
            if let path {
                return try BoundedRead.contents(
                    ofFile: path, limit: limit, expected: expected, accepting: .anythingButDirectories)
            }
            return try BoundedRead.contents(
                of: STDIN_FILENO, limit: limit, expected: expected, accepting: .anythingButDirectories)
        } catch {
            guard error.kind == .tooLarge else {
                throw Failure(message: "\(name): \(error.message)", status: .usage)
            }
            throw Failure(message: "\(name): \(error.message); nothing was stored", status: .error)
        }
    }
}
