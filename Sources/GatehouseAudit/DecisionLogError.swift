import Foundation

/// Why a ``DecisionLog`` could not open, write or synchronize its file: the operation, the
/// path and the system's reason, such as `cannot write decisions.jsonl: No space left on device`.
public struct DecisionLogError: Error, Sendable, Hashable, LocalizedError {
    /// What failed: `"open"`, `"write"` or `"fsync"`.
    public var operation: String
    /// The log file's path.
    public var path: String
    /// The system's error number (`errno`), such as `ENOSPC`.
    public var code: Int32
    /// One sentence: what failed, where, and the system's reason.
    public var message: String

    /// Creates the error for `operation` on `path` failing with the system error `code`.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
        self.message = "cannot \(operation) \(path): \(String(cString: strerror(code)))"
    }

    /// The message.
    public var errorDescription: String? { message }
}
