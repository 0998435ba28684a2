import Foundation
import GatehouseCore

/// A problem in configuration, the one error type of GatehouseComposition: every problem of a
/// configuration, found in one pass, each located by its path in the file
/// (`services.avatars.gatekeepers[2].from: expected HH:mm, found "9am"`) or by line and column.
///
/// A plugin factory throws it to point at its own settings, with paths relative to the
/// component (`ConfigurationError(path: "timeZone", message: ...)`, `days[2]`); the assembler
/// places them under the component's path. Registering a plugin under a taken name, or asking
/// for a service a configuration does not have, throws it too, with an empty path.
public struct ConfigurationError: Error, Sendable, Hashable, LocalizedError {
    /// One located problem.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// Where: a path such as `services.avatars.cache.countLimit`; empty for the whole file.
        public var path: String
        /// What was wrong and what was expected.
        public var message: String
        /// For a syntax error: the 1-based line.
        public var line: Int?
        /// For a syntax error: the 1-based column, in characters.
        public var column: Int?

        /// Creates an issue.
        public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
            self.path = path
            self.message = message
            self.line = line
            self.column = column
        }

        /// `path: message`, or `line L, column C: message` for a syntax error.
        public var description: String {
            if let line, let column { return "line \(line), column \(column): \(message)" }
            return path.isEmpty ? message : "\(path): \(message)"
        }
    }

    /// The file the configuration came from, if it came from a file.
    public var file: URL?
    /// The problems, in the order they were found (file order).
    public var issues: [Issue]

    /// Creates an error from its issues.
    public init(file: URL? = nil, issues: [Issue]) {
        self.file = file
        self.issues = issues
    }

    /// An error of one problem at `path` (empty: the whole configuration, or no place in it).
    public init(path: String = "", message: String) {
        self.init(issues: [Issue(path: path, message: message)])
    }

    /// An error of one problem with the whole file.
    init(file: URL?, message: String, line: Int? = nil, column: Int? = nil) {
        self.init(file: file, issues: [Issue(path: "", message: message, line: line, column: column)])
    }

    /// Adds a problem at `path`, for a factory that reports every problem of its settings at once.
    mutating func add(_ path: String, _ message: String) {
        issues.append(Issue(path: path, message: message))
    }

    /// Throws `self` when it holds any problem.
    func throwIfAny() throws(ConfigurationError) {
        if !issues.isEmpty { throw self }
    }

    /// One line per issue.
    public var errorDescription: String? {
        issues.map(\.description).joined(separator: "\n")
    }
}

/// Collects issues while a configuration is assembled.
final class IssueCollector: Sendable {
    private let stored = LockedState<[ConfigurationError.Issue]>([])

    func add(_ path: String, _ message: String) {
        stored.withLock { $0.append(.init(path: path, message: message)) }
    }

    var issues: [ConfigurationError.Issue] { stored.withLock { $0 } }
}

/// Path helpers: `services.avatars`, `gatekeepers[2]`, and quoting for odd names.
package enum ConfigurationPath {
    /// `base.key`, or `base["odd key"]` for a key that is not a plain word.
    package static func member(_ base: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
        let part = plain ? key : "[\"\(key.replacingOccurrences(of: "\"", with: "\\\""))\"]"
        if base.isEmpty || !plain { return base + part }
        return "\(base).\(part)"
    }

    static func element(_ base: String, _ index: Int) -> String {
        "\(base)[\(index)]"
    }

    /// Appends a relative coding path (`.from`, `[2]`, `.policies[0]`) to a base path.
    static func appending(_ base: String, _ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(base) { path, key in
            key.intValue.map { element(path, $0) } ?? member(path, key.stringValue)
        }
    }

    /// ` (did you mean "…"?)` naming the closest candidate to `word`, or `""`.
    static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String {
        closestName(to: word, among: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }
}
