import Foundation

/// Thrown by a loader when nothing exists for a key.
public struct ResourceNotFound: Error, Sendable, Hashable, LocalizedError {
    /// The key, as text.
    public var key: String

    /// Creates the error for `key`.
    public init(key: String) {
        self.key = key
    }

    /// A sentence naming the key.
    public var errorDescription: String? {
        "no resource for key \"\(key)\""
    }
}
