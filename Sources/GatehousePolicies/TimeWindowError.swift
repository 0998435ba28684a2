import Foundation

/// A ``TimeWindow`` that cannot decide: its clock reads an instant it cannot place on a wall
/// clock. The policy throws it from the decision instead of denying, so that no combinator
/// (`Not`) can turn the fault into an allow; the proxy denies with a gate failure.
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
    /// What was wrong and what was expected, such as
    /// `the clock reads nan; expected a finite instant`.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var errorDescription: String? { message }
}
