import Foundation

/// A ``TimeWindow`` that cannot decide: its clock reads an instant it cannot place. Thrown, not
/// a denial, so that `Not` cannot turn the fault into an allow.
public struct TimeWindowError: Error, Sendable, Hashable, LocalizedError {
    /// What the clock read.
    public enum Kind: Sendable, Hashable {
        /// Not a number, or an infinity.
        case clockNotFinite
        /// A finite instant outside ``TimeWindow/supportedInstants``.
        case clockOutOfRange
    }

    /// What the clock read.
    public var kind: Kind
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var errorDescription: String? { message }
}
