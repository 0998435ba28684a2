import Foundation

/// A rules file that cannot be used: missing, unreadable, not a regular file, too large, not
/// UTF-8, or malformed. ``FilePolicy`` throws it from every decision until the file is fixed,
/// so the proxy denies with a gate failure.
public struct RulesFileError: Error, Sendable, Hashable, LocalizedError {
    /// What kind of problem the file has.
    public enum Kind: Sendable, Hashable {
        /// The file could not be opened, read or examined (missing, no permission, I/O error).
        case cannotRead
        /// The path names a directory, device, pipe or other non-regular file.
        case notRegularFile
        /// The file is larger than the policy's maximum size.
        case tooLarge
        /// The file kept changing while it was read.
        case changedWhileReading
        /// A line is not valid UTF-8.
        case notUTF8
        /// A line does not have the form `effect subject action resource`, or holds a character
        /// a rule may not hold.
        case malformed
        /// The file looks like a version still being written: it is empty (no rule, comment or
        /// `end` line), or it lacks the `end` line its policy requires.
        case incomplete
    }

    /// The file, as named in messages (its last path component).
    public var file: String
    /// The 1-based line the problem is on, or `nil` for a problem with the whole file.
    public var line: Int?
    /// The kind of problem.
    public var kind: Kind
    /// What is wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int? = nil, kind: Kind, message: String) {
        self.file = file
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// `"<file>:<line>: <message>"`, or `"<file>: <message>"` without a line.
    public var errorDescription: String? {
        if let line {
            return "\(file):\(line): \(message)"
        }
        return "\(file): \(message)"
    }
}
