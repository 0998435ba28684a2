import Foundation
import GatehouseCore

/// A rules file that cannot be used, with every problem found in it; ``FilePolicy`` throws it from
/// every decision until the file is fixed.
public struct RulesFileError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
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
        /// A line is not a rule, holds a forbidden character, or reads an undeclared attribute.
        case malformed
        /// The file looks like a version still being written: it holds no line, or lacks the
        /// `end` line its policy requires.
        case incomplete
        /// The version allows a request that an invariant forbids (see ``Invariants``).
        case breaksInvariant
    }

    /// One problem of the file: where it is, its kind, and what is wrong.
    public struct Issue: Sendable, Hashable {
        /// The 1-based line the problem is on, or `nil` for a problem with the whole file.
        public var line: Int?
        /// The kind of problem.
        public var kind: Kind
        /// What is wrong and what was expected.
        public var message: String

        /// Creates a problem.
        public init(line: Int? = nil, kind: Kind, message: String) {
            self.line = line
            self.kind = kind
            self.message = message
        }
    }

    /// How many problems an error lists; the rest are counted in ``unlistedProblemCount``.
    public static let problemLimit = 100

    /// The file, as named in messages (its last path component).
    public var file: String
    /// The problems, in line order (those of the whole file last), at most ``problemLimit``.
    public var problems: [Issue]
    /// How many more problems the file has than ``problems`` lists.
    public var unlistedProblemCount: Int

    /// The 1-based line of the first problem, or `nil` for a problem with the whole file.
    public var line: Int? { problems[0].line }
    /// The kind of the first problem.
    public var kind: Kind { problems[0].kind }
    /// What is wrong with the first problem, and what was expected.
    public var message: String { problems[0].message }

    /// Creates an error with one problem.
    public init(file: String, line: Int? = nil, kind: Kind, message: String) {
        self.init(file: file, problems: [Issue(line: line, kind: kind, message: message)])
    }

    /// Creates an error listing `problems` (at least one), sorted; past ``problemLimit`` counted.
    public init(file: String, problems: [Issue]) {
        precondition(!problems.isEmpty, "a RulesFileError has at least one problem")
        let sorted = problems.enumerated().sorted { left, right in
            (left.element.line ?? .max, left.offset) < (right.element.line ?? .max, right.offset)
        }.map(\.element)
        self.file = file
        self.problems = Array(sorted.prefix(Self.problemLimit))
        self.unlistedProblemCount = sorted.count - self.problems.count
    }

    /// `"<file>:<line>: <message> (and N more problems)"`: short enough for a denial's reason.
    public var errorDescription: String? {
        let others = problems.count - 1 + unlistedProblemCount
        let first = Self.describe(problems[0], in: file)
        guard others > 0 else { return first }
        return "\(first) (and \(grouped(others)) more problem\(others == 1 ? "" : "s"))"
    }

    /// Every listed problem as ``errorDescription`` says one, then `"and N more"`, if any.
    public var problemDescriptions: [String] {
        var lines = problems.map { Self.describe($0, in: file) }
        if unlistedProblemCount > 0 {
            lines.append("\(file): and \(grouped(unlistedProblemCount)) more")
        }
        return lines
    }

    /// Every problem, one per line (see ``problemDescriptions``).
    public var description: String {
        problemDescriptions.joined(separator: "\n")
    }

    private static func describe(_ problem: Issue, in file: String) -> String {
        "\(file)\(problem.line.map { ":\($0)" } ?? ""): \(problem.message)"
    }
}

extension RulesFileError {
    /// The error of a file that could not be read, with the same kind and message.
    init(_ error: FileReadError, file: String) {
        let kind: Kind =
            switch error.kind {
            case .cannotRead: .cannotRead
            case .notRegularFile: .notRegularFile
            case .tooLarge: .tooLarge
            case .changedWhileReading: .changedWhileReading
            // A rules file is read without patience: only a pipe can fail to end, and it is refused.
            case .didNotEnd: .cannotRead
            }
        self.init(file: file, kind: kind, message: error.message)
    }
}

extension RulesFileError.Kind {
    /// Whether the problem is with the contents (a bad version), not with reaching the file.
    var isAboutContents: Bool {
        switch self {
        case .cannotRead, .notRegularFile: false
        case .tooLarge, .changedWhileReading, .notUTF8, .malformed, .incomplete, .breaksInvariant: true
        }
    }
}
