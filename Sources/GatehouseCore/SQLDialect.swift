/// A database whose SQL ``AccessPlan/sql(column:dialect:)`` writes: each dialect's expression is
/// exact on that database's default settings, with no pragma or session setting. See
/// docs/plans.md.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SQLite as it ships: a pattern with `GLOB` (which never ignores case), the column quoted
    /// with backticks (never read as a string), and rows holding NUL left out (`GLOB` reads a
    /// text only up to its first NUL, and no permitted name holds one).
    case sqlite
    /// PostgreSQL on its default settings, in a UTF-8 database: a pattern with `LIKE` (which
    /// compares case), `%`, `_` and `\` escaped with `\`, a literal holding `\` written as an
    /// `E'…'` string (the same text whatever `standard_conforming_strings` says), and the column
    /// quoted with `"` (an unknown quoted name is an error). A name or pattern holding NUL, which
    /// no PostgreSQL text can hold, matches nothing.
    case postgresql

    /// The dialect's name: `sqlite` or `postgresql`.
    public var description: String { rawValue }

    /// Whether `column` is `NAME` or `TABLE.NAME`, each of ASCII letters, digits and `_`, not
    /// starting with a digit: a name no database reads as anything but a column.
    package static func isPlainColumn(_ column: String) -> Bool {
        let parts = column.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else {
                    return false
                }
                return part.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                        || $0 == "_"
                }
            }
    }

    /// `column` (`name` or `table.name`) quoted as an identifier only, each part on its own.
    package func identifier(_ column: String) -> String {
        let quote = self == .sqlite ? "`" : "\""
        return column.split(separator: ".", omittingEmptySubsequences: false)
            .map { quote + $0.replacingOccurrences(of: quote, with: quote + quote) + quote }
            .joined(separator: ".")
    }

    /// `text` as a string literal that reads back as exactly `text` (which holds no NUL).
    func literal(_ text: String) -> String {
        let quoted = text.replacingOccurrences(of: "'", with: "''")
        guard self == .postgresql, text.contains("\\") else { return "'" + quoted + "'" }
        // An escape string reads `\\` as `\` whether or not standard_conforming_strings is on,
        // so a `\` can never end the literal early.
        return "E'" + quoted.replacingOccurrences(of: "\\", with: "\\\\") + "'"
    }

    /// The test that `column` matches `pattern` (which has a `*` and holds no NUL).
    func matching(_ pattern: AccessPlan.Pattern, column: String) -> String {
        switch self {
        case .sqlite:
            // In GLOB, `*`, `?` and `[` each in brackets (`[*]`) read as that character.
            let glob = pattern.runs.map { run in
                var escaped = ""
                for scalar in run.unicodeScalars {
                    switch scalar {
                    case "*", "?", "[": escaped += "[\(scalar)]"
                    default: escaped.unicodeScalars.append(scalar)
                    }
                }
                return escaped
            }.joined(separator: "*")
            return "\(column) GLOB \(literal(glob))"
        case .postgresql:
            // LIKE's default escape character is `\`; `%` is the only wildcard left unescaped.
            let like = pattern.runs.map { run in
                var escaped = ""
                for scalar in run.unicodeScalars {
                    switch scalar {
                    case "%", "_", "\\": escaped += "\\\(scalar)"
                    default: escaped.unicodeScalars.append(scalar)
                    }
                }
                return escaped
            }.joined(separator: "%")
            return "\(column) LIKE \(literal(like))"
        }
    }

    /// `expression` narrowed to the rows this dialect can read exactly: in SQLite, rows whose
    /// text holds no NUL (`GLOB` would read them only up to it); in PostgreSQL every row.
    func exactRows(_ expression: String, column: String) -> String {
        guard self == .sqlite else { return expression }
        let guarded = "instr(\(column), char(0)) = 0"
        return expression == "(1 = 1)" ? "(\(guarded))" : "(\(guarded) AND \(expression))"
    }
}
