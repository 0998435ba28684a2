import Foundation

/// Why a ``DecisionLog`` could not open, write or synchronize its file: the operation, the
/// path and the reason, such as `cannot write decisions.jsonl: No space left on device` or
/// `cannot open decisions.jsonl: it is a named pipe (FIFO), not a regular file; …`.
public struct DecisionLogError: Error, Sendable, Hashable, LocalizedError {
    /// What failed: `"open"`, `"write"`, `"truncate"` (cutting a partly written line back out) or
    /// `"fsync"`.
    public var operation: String
    /// The log file's path.
    public var path: String
    /// The system's error number (`errno`), such as `ENOSPC`; for a path that is not a regular
    /// file, `ELOOP` (a link), `EISDIR` (a directory), or the open's error, else `EINVAL`.
    public var code: Int32
    /// One sentence: what failed, where, and the system's reason.
    public var message: String

    /// Creates the error for `operation` on `path` failing with the system error `code`.
    public init(operation: String, path: String, code: Int32) {
        self.init(operation: operation, path: path, code: code, reason: String(cString: strerror(code)))
    }

    /// The error with a reason of the log's own.
    init(operation: String, path: String, code: Int32, reason: String) {
        self.operation = operation
        self.path = path
        self.code = code
        self.message = "cannot \(operation) \(path): \(reason)"
    }

    /// The message.
    public var errorDescription: String? { message }
}
