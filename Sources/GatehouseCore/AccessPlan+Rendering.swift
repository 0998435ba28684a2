extension AccessPlan {
    /// A SQL boolean expression over the text column `column` that holds where ``permits(_:)``
    /// holds, exact in SQLite as it ships (no pragma): ``sql(column:dialect:)`` for
    /// ``SQLDialect/sqlite``.
    public func sql(column: String) -> String {
        sql(column: column, dialect: .sqlite)
    }

    /// A SQL boolean expression over the text column `column` that holds where ``permits(_:)``
    /// holds, exact on `dialect`'s database with its default settings (no pragma, no session
    /// setting): names compare by their bytes, case included. An exact name compares with `=`, a
    /// pattern with the dialect's matcher (SQLite's `GLOB`, PostgreSQL's `LIKE`, wildcards in the
    /// name escaped), and a part that must check each name renders as false; ``identity`` is not
    /// checked. A name or pattern holding NUL matches no row. `column` (`name` or `table.name`) is
    /// quoted as an identifier only, so a column the table lacks fails the query instead of
    /// being read as a string. Any number of names and patterns render to an expression the
    /// database accepts: exact names as `IN` lists, the rest as balanced `OR`/`AND` trees. See
    /// docs/plans.md.
    public func sql(column: String, dialect: SQLDialect) -> String {
        sql(column: column, attributeColumns: [:], dialect: dialect)
    }

    /// ``sql(column:dialect:)`` with each resource attribute of `attributeColumns` read from its
    /// column (`name` or `table.name`, quoted as `column` is): an attribute predicate
    /// (``Residual/attribute(_:equals:)``) renders as `(c IS NOT NULL AND c = 'value')`, so that a
    /// row whose column is `NULL` is a resource without the attribute, as in
    /// ``permits(_:attributes:)``. A predicate on an attribute with no column renders as a part
    /// that must check each name (false where it would allow: fail closed);
    /// ``attributesWithoutColumn(_:)`` names them. Exact where the columns hold text in NFC (a
    /// decision compares the resource's value in NFC). See docs/plans.md.
    public func sql(column: String, attributeColumns: [String: String], dialect: SQLDialect) -> String {
        let quoted = dialect.identifier(column)
        let residual = residual.bound(unplanned: false, keeping: Set(attributeColumns.keys))
        let columns = attributeColumns.mapValues(dialect.identifier)
        let expression = Self.sql(residual, column: quoted, attributes: columns, dialect: dialect)
        // Names alone (`=`, `IN`) or nothing select no row holding NUL; anything else may.
        func isNames(_ residual: Residual) -> Bool {
            switch residual {
            case .nothing: true
            case .pattern(let pattern): pattern.isExact
            case .any(let members): members.allSatisfy(isNames)
            default: false
            }
        }
        return isNames(residual) ? expression : dialect.exactRows(expression, column: quoted)
    }

    /// The attributes the predicates read that `attributeColumns` has no column for, each once,
    /// in order: where ``sql(column:attributeColumns:dialect:)`` must check each name.
    public func attributesWithoutColumn(_ attributeColumns: [String: String]) -> [String] {
        attributeNames.filter { attributeColumns[$0] == nil }
    }

    private static func sql(
        _ residual: Residual, column: String, attributes: [String: String], dialect: SQLDialect
    ) -> String {
        func sql(_ residual: Residual, column: String, dialect: SQLDialect) -> String {
            Self.sql(residual, column: column, attributes: attributes, dialect: dialect)
        }
        switch residual {
        case .everything: return "(1 = 1)"
        case .attribute(let key, let value):
            // The value is folded from a rules file and the caller: never NUL (a placeholder's
            // value holds no control character); one that did would match nothing.
            guard let quoted = attributes[key], !value.utf8.contains(0) else { return "(1 = 0)" }
            return "(\(quoted) IS NOT NULL AND \(quoted) = \(dialect.literal(value)))"
        case .nothing, .unplanned: return "(1 = 0)"
        // No row the expression can select holds NUL (SQLDialect.exactRows).
        case .pattern(let pattern) where pattern.runs.contains(where: { $0.utf8.contains(0) }):
            return "(1 = 0)"
        case .pattern(let pattern) where pattern.isExact:
            return "\(column) = \(dialect.literal(pattern.runs[0]))"
        case .pattern(let pattern): return dialect.matching(pattern, column: column)
        case .all(let members):
            return balanced(members.map { sql($0, column: column, dialect: dialect) }, "AND")
        case .any(let members):
            // Exact names in one `IN` list, which has no depth; the rest in a balanced tree.
            // The list stands where the first name stood.
            var names: [String] = []
            var parts: [String] = []
            var listAt: Int?
            for member in members {
                if case .pattern(let pattern) = member, pattern.isExact, !pattern.runs[0].utf8.contains(0) {
                    listAt = listAt ?? parts.count
                    names.append(dialect.literal(pattern.runs[0]))
                } else {
                    parts.append(sql(member, column: column, dialect: dialect))
                }
            }
            if let listAt {
                let list =
                    names.count == 1
                    ? "\(column) = \(names[0])" : "\(column) IN (\(names.joined(separator: ", ")))"
                parts.insert(list, at: listAt)
            }
            return balanced(parts, "OR")
        case .complement(let member): return "NOT (\(sql(member, column: column, dialect: dialect)))"
        }
    }

    /// `parts` joined by `joiner` in a tree of depth log₂ of their count, so that thousands
    /// stay within a database's expression depth (SQLite's is 1,000).
    private static func balanced(_ parts: [String], _ joiner: String) -> String {
        switch parts.count {
        case 0: return joiner == "AND" ? "(1 = 1)" : "(1 = 0)"
        case 1...4: return "(" + parts.joined(separator: " \(joiner) ") + ")"
        default:
            let middle = parts.count / 2
            return "(" + balanced(Array(parts[..<middle]), joiner) + " \(joiner) "
                + balanced(Array(parts[middle...]), joiner) + ")"
        }
    }

    /// The literal prefixes every name of ``candidates`` starts with, sorted, none starting with
    /// another: `[""]` when the plan bounds no prefix, `[]` when it allows nothing.
    public var prefixes: [String] {
        guard let found = Self.prefixes(residual.bound(unplanned: true)) else { return [""] }
        var kept: [String] = []
        for prefix in found.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            if let last = kept.last, prefix.utf8.starts(with: last.utf8) { continue }
            kept.append(prefix)
        }
        return kept
    }

    /// Whether a listing must walk `folder` (`""` for the root): `false` only when ``prefixes``
    /// rule it out.
    public func mayPermitNames(under folder: String) -> Bool {
        let start = folder.isEmpty ? "" : folder + "/"
        return prefixes.contains { start.utf8.starts(with: $0.utf8) || $0.utf8.starts(with: start.utf8) }
    }

    /// The prefixes every name in `residual` starts with, or `nil` when it bounds none.
    private static func prefixes(_ residual: Residual) -> [String]? {
        switch residual {
        case .everything, .complement, .unplanned, .attribute: return nil
        case .nothing: return []
        case .pattern(let pattern): return [pattern.runs[0]]
        case .any(let members):
            var all: [String] = []
            for member in members {
                guard let found = prefixes(member) else { return nil }
                all += found
            }
            return all
        case .all(let members):
            return members.lazy.compactMap(prefixes).first
        }
    }
}

extension AccessPlan: Encodable {
    private enum CodingKeys: String, CodingKey {
        case exact, unplanned, prefixes, residual
    }

    /// `{"exact": …, "unplanned": […], "prefixes": […], "residual": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isExact, forKey: .exact)
        try container.encode(unplanned, forKey: .unplanned)
        try container.encode(prefixes, forKey: .prefixes)
        try container.encode(residual, forKey: .residual)
    }
}

extension AccessPlan.Residual: Encodable {
    private enum CodingKeys: String, CodingKey {
        case match, allOf, anyOf, not, checkEach, attribute
    }

    private enum AttributeKeys: String, CodingKey {
        case name, equals
    }

    /// `true` (everything), `false` (nothing), `{"match": ["docs/", ""]}` (the pattern's runs),
    /// `{"allOf": […]}`, `{"anyOf": […]}`, `{"not": …}`, `{"checkEach": "gatekeeper"}` or
    /// `{"attribute": {"name": "owner", "equals": "alice"}}`.
    public func encode(to encoder: any Encoder) throws {
        if self == .everything || self == .nothing {
            var container = encoder.singleValueContainer()
            return try container.encode(self == .everything)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .everything, .nothing: break
        case .pattern(let pattern): try container.encode(pattern.runs, forKey: .match)
        case .all(let members): try container.encode(members, forKey: .allOf)
        case .any(let members): try container.encode(members, forKey: .anyOf)
        case .complement(let member): try container.encode(member, forKey: .not)
        case .unplanned(let gatekeeper): try container.encode(gatekeeper, forKey: .checkEach)
        case .attribute(let key, let value):
            var predicate = container.nestedContainer(keyedBy: AttributeKeys.self, forKey: .attribute)
            try predicate.encode(key, forKey: .name)
            try predicate.encode(value, forKey: .equals)
        }
    }
}
