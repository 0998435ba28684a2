import Foundation

/// A policy was configured in a way it cannot work with, reported when it is created: which
/// policy, and what was wrong.
public struct PolicyConfigurationError: Error, Sendable, Hashable, LocalizedError {
    /// The name of the policy that was misconfigured, such as `"allowList"`.
    public var policy: String
    /// What was wrong and what was expected, as a sentence.
    public var message: String

    /// Creates an error for `policy`.
    public init(policy: String, message: String) {
        self.policy = policy
        self.message = message
    }

    /// `"<policy>: <message>"`.
    public var errorDescription: String? { "\(policy): \(message)" }
}
