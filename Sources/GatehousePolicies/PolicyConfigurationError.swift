import Foundation

/// Thrown when a policy is built with settings that cannot work: the policy and what was wrong.
public struct PolicyConfigurationError: Error, Sendable, Hashable, LocalizedError {
    /// The policy's type name, such as `"timeWindow"`.
    public var policy: String
    /// What was wrong and what was expected.
    public var message: String

    /// Creates the error.
    public init(policy: String, message: String) {
        self.policy = policy
        self.message = message
    }

    /// The policy and the message, such as `timeWindow: from and to are both 09:00`.
    public var errorDescription: String? { "\(policy): \(message)" }
}
