/// What an ``AllOf`` or ``AnyOf`` with no members throws when asked: with no member it has no
/// decision to give, and a denial would turn into an allow under ``Not``.
public struct EmptyCombinatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the combinator asked.
    public var policy: String

    /// Creates the error for the combinator named `policy`.
    public init(policy: String) {
        self.policy = policy
    }

    /// `allOf has no policies, so it cannot decide; give it at least one`.
    public var description: String {
        "\(policy) has no policies, so it cannot decide; give it at least one"
    }
}
