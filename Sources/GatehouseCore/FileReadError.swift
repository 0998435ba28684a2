#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

/// Why a file could not be read: its kind and a sentence to follow the file's name
/// (`cannot read: No such file or directory`).
package struct FileReadError: Error, Sendable, Hashable {
    /// What kind of problem the file has.
    package enum Kind: Sendable, Hashable {
        /// Missing, no permission, or an I/O error.
        case cannotRead
        /// A directory, device, pipe or other file that is not a regular file.
        case notRegularFile
        /// Larger than the limit.
        case tooLarge
        /// It kept changing while it was read.
        case changedWhileReading
        /// A pipe or device that did not end within the time it was given.
        case didNotEnd
    }

    /// The kind of problem.
    package var kind: Kind
    /// What is wrong, to follow the file's name.
    package var message: String
    /// The `errno` of a failed system call, when one failed.
    package var code: Int32?

    /// Creates the error.
    package init(kind: Kind, message: String, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    /// The file could not be opened, read or examined, `code` (an `errno`) saying why.
    package static func cannotRead(_ code: Int32) -> FileReadError {
        FileReadError(
            kind: .cannotRead, message: "cannot read: \(String(cString: strerror(code)))", code: code)
    }

    /// The file holds more than `limit` bytes: `size` of them when it is known (a regular file).
    package static func tooLarge(size: Int64?, limit: Int) -> FileReadError {
        let holds = size.map { "is \($0) bytes, larger" } ?? "is larger"
        return FileReadError(kind: .tooLarge, message: "\(holds) than the limit of \(limit) bytes")
    }

    /// A pipe or device that had not ended after `patience`.
    package static func didNotEnd(within patience: Duration) -> FileReadError {
        FileReadError(
            kind: .didNotEnd, message: "did not end within \(spoken(patience)) (a pipe or device still open)")
    }

    /// `10 seconds`, `1 second` or `300 ms`.
    private static func spoken(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
