/// One problem a gatekeeper's ``AccessPolicy/validationIssues()`` found: where below the checked
/// policy, and what is wrong.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where below the checked policy: empty for the policy itself, or a path through members
    /// such as `policies[0].policy`, spelled like the combinators' configuration keys.
    public var path: String
    /// What is wrong, as a sentence; a problem in a file starts with its file and line.
    public var message: String

    /// Creates an issue.
    public init(path: String = "", message: String) {
        self.path = path
        self.message = message
    }

    /// The issue as seen from a policy that holds the checked one as `member`.
    package func within(_ member: String) -> ValidationIssue {
        let nested =
            path.isEmpty ? member : path.hasPrefix("[") ? member + path : "\(member).\(path)"
        return ValidationIssue(path: nested, message: message)
    }

    /// `path: message`, or the message alone for the policy itself.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
