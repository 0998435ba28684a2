/// One problem a ``ValidatingPolicy`` found when checked ahead of its decisions: where below
/// the checked policy, and what is wrong.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where below the checked policy the problem is: empty for the policy itself, otherwise a
    /// path through members such as `policies[1]` or `policies[0].policy`, spelled like the
    /// configuration keys of the combinators.
    public var path: String
    /// What is wrong and what was expected, as a sentence; a problem in a file starts with the
    /// file and line: `avatars.rules:3: expected 4 fields ...`.
    public var message: String

    /// Creates an issue.
    public init(path: String = "", message: String) {
        self.path = path
        self.message = message
    }

    /// The issue as seen from a policy that holds the checked one as `member` (`policies[2]`,
    /// `policy`): `member` is put in front of the path.
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
