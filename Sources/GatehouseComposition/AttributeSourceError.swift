import Foundation

/// Thrown by an attribute source that cannot answer; the gate fails with the message as its reason.
public struct AttributeSourceError: Error, Sendable, Hashable, LocalizedError {
    /// What went wrong, naming the file.
    public var message: String

    /// Creates the error.
    package init(message: String) {
        self.message = message
    }

    /// The message.
    public var errorDescription: String? { message }
}
