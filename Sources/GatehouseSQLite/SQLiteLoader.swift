import Foundation
import GatehouseCore

/// A loader over one SQLite table of named resources: loads, stores, removes and lists, and
/// lists by a plan with the plan's SQL (`AccessPlan.sql(column:)`), so that a listing
/// through `AccessProxy` asks the database for only the rows the gate may allow.
///
/// The table has a text column of names (the key, its primary key) and a blob column of
/// values; it is created when missing. Keys keep `ResourceIdentity.path` (NFC, no control
/// character, a relative path without empty, `.` or `..` components): a key that breaks it is
/// refused (``SQLiteLoaderError/invalidKey(key:reason:)``), so every stored name is one a gate
/// decides as the plan's SQL does, which is exact in SQLite as it ships (no pragma). It uses the
/// system's SQLite: the SDK's on Apple platforms, libsqlite3
/// on Linux.
///
/// ```swift
/// let documents = try SQLiteLoader(path: "documents.sqlite")
/// let guarded = documents.guarded(by: rules)
/// let visible = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
///     try await guarded.keys(under: "")
/// }
/// ```
///
/// With `attributeColumns`, its rows are also the resources' attributes (an owner): one source
/// of truth, read by ``resourceAttributes`` for each decision, and the same columns in the SQL
/// of a listing, so that the plan's attribute predicates (`owner = 'alice'`) are pushed down too.
///
/// ```swift
/// let documents = try SQLiteLoader(path: "documents.sqlite", attributeColumns: ["owner": "owner_id"])
/// try await documents.store(data, for: "docs/plan.md", attributes: ["owner": "alice"])
/// let guarded = documents.guarded(by: rules, attributes: documents.resourceAttributes)
/// ```
public struct SQLiteLoader: ResourceStoring, FilteredListing {
    /// The database file.
    public let path: String
    /// The table's name.
    public let table: String
    /// The column of each resource attribute the rows hold, by attribute name.
    public let attributeColumns: [String: String]

    private let database: SQLiteDatabase
    private let quotedTable: String
    /// The attribute names, sorted, and their quoted columns in the same order.
    private let attributeNames: [String]
    private let quotedColumns: [String]

    /// Opens the database at `path` (created when missing) and the table `table` in it (created
    /// when missing, with the columns `name TEXT PRIMARY KEY` and `value BLOB`, and a `TEXT`
    /// column, indexed, for each of `attributeColumns`). `path` is a plain file path, or
    /// `:memory:`; a `file:` URI is refused, whatever SQLite's build would make of it. Each column
    /// of `attributeColumns` is a plain name (ASCII letters, digits and `_`, not starting with a
    /// digit) that an existing table must already have.
    ///
    /// - Throws: ``SQLiteLoaderError/database(message:)`` when `path` is not a plain file path,
    ///   the file cannot be opened, the table cannot be made, or a column is not a plain name or
    ///   is missing from the table.
    public init(path: String, table: String = "resources", attributeColumns: [String: String] = [:]) throws {
        self.path = path
        self.table = table
        self.attributeColumns = attributeColumns
        try Self.check(path: path, attributeColumns: attributeColumns)
        database = try SQLiteDatabase(path: path)
        quotedTable = Self.quoted(table)
        attributeNames = attributeColumns.keys.sorted()
        // Backticks: SQLite reads an unknown double-quoted name as a string, never as an error.
        quotedColumns = attributeNames.map { SQLDialect.sqlite.identifier(attributeColumns[$0]!) }
        let columns = quotedColumns.map { ", \($0) TEXT" }.joined()
        try database.execute(
            "CREATE TABLE IF NOT EXISTS \(quotedTable) "
                + "(name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL\(columns))")
        for (name, column) in zip(attributeNames, quotedColumns) {
            do {
                // Fails when the table has no such column.
                try database.execute("SELECT \(column) FROM \(quotedTable) LIMIT 0")
            } catch {
                throw SQLiteLoaderError.database(
                    message: "the table \(table.debugDescription) has no column "
                        + "\(attributeColumns[name]!.debugDescription) for the attribute \(name.debugDescription)"
                )
            }
            try database.execute(
                "CREATE INDEX IF NOT EXISTS \(Self.quoted(table + "_" + attributeColumns[name]!)) "
                    + "ON \(quotedTable) (\(column))")
        }
    }

    /// Refuses, without opening anything, a `path` that is not a plain file path (or `:memory:`)
    /// and a column of `attributeColumns` that is not a plain name: what ``init(path:table:attributeColumns:)``
    /// refuses before it opens the file.
    package static func check(path: String, attributeColumns: [String: String]) throws(SQLiteLoaderError) {
        try check(path: path)
        try check(attributeColumns: attributeColumns)
    }

    /// Refuses a `path` that is not a plain file path (or `:memory:`).
    package static func check(path: String) throws(SQLiteLoaderError) {
        try SQLiteDatabase.checkPlain(path)
    }

    /// Refuses a column of `attributeColumns` that is not a plain name.
    package static func check(attributeColumns: [String: String]) throws(SQLiteLoaderError) {
        for (name, column) in attributeColumns.sorted(by: { $0.key < $1.key })
        where name.isEmpty || column.contains(".") || !SQLDialect.isPlainColumn(column) {
            throw .database(
                message: "the column \(column.debugDescription) of the attribute \(name.debugDescription) "
                    + "is not a plain column name (ASCII letters, digits and _, not starting with a digit)")
        }
    }

    /// `name` as a quoted SQLite identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The value stored for `key`.
    ///
    /// - Throws: ``SQLiteLoaderError/notFound(key:)`` when no row holds it; `invalidKey` or
    ///   `database` as the type says.
    public func load(_ key: String) async throws -> Data {
        try Self.check(key)
        let rows = try database.execute("SELECT value FROM \(quotedTable) WHERE name = ?", [.text(key)])
        guard let row = rows.first else { throw SQLiteLoaderError.notFound(key: key) }
        return row[0]
    }

    /// Stores `resource` for `key`, replacing the value that was there and keeping the row's
    /// attributes (a new row has none).
    public func store(_ resource: Data, for key: String) async throws {
        try Self.check(key)
        try database.execute(
            "INSERT INTO \(quotedTable) (name, value) VALUES (?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [.text(key), .blob(resource)])
    }

    /// Stores `resource` for `key` with the resource's `attributes` (an owner): each attribute of
    /// ``attributeColumns`` takes its value from `attributes`, and one `attributes` lacks has
    /// none (`NULL`). This is the app's own write, not a caller's: through `AccessProxy` a
    /// caller stores only the value.
    ///
    /// - Throws: ``SQLiteLoaderError/database(message:)`` when `attributes` names an attribute
    ///   with no column, or a value is not text a decision can read (see ``resourceAttributes``).
    public func store(_ resource: Data, for key: String, attributes: [String: String]) async throws {
        try Self.check(key)
        if let stray = attributes.keys.sorted().first(where: { attributeColumns[$0] == nil }) {
            throw SQLiteLoaderError.database(
                message: "the table \(table.debugDescription) has no column for the attribute "
                    + "\(stray.debugDescription); give it in attributeColumns")
        }
        for name in attributeNames {
            if let value = attributes[name], let problem = Self.problem(with: value) {
                throw SQLiteLoaderError.database(
                    message: "the value of the attribute \(name.debugDescription) \(problem)")
            }
        }
        let columns = quotedColumns.map { ", " + $0 }.joined()
        let marks = String(repeating: ", ?", count: quotedColumns.count)
        let updates = quotedColumns.map { ", \($0) = excluded.\($0)" }.joined()
        let values = attributeNames.map { attributes[$0].map(SQLiteDatabase.Value.text) ?? .null }
        try database.execute(
            "INSERT INTO \(quotedTable) (name, value\(columns)) VALUES (?, ?\(marks)) "
                + "ON CONFLICT (name) DO UPDATE SET value = excluded.value\(updates)",
            [.text(key), .blob(resource)] + values)
    }

    /// The resources' attributes as the rows hold them: for a key, each attribute of
    /// ``attributeColumns`` with its column's value, one whose value is `NULL` (or a key with no
    /// row) missing. A value that is not text in NFC without control characters (a blob, a real,
    /// an NFD spelling), which the plan's SQL and a decision could read differently, fails the
    /// gate. Give it to the proxy over this loader, so the listing's SQL and each decision read
    /// the same rows.
    public var resourceAttributes: ResourceAttributes<String> {
        ResourceAttributes(Set(attributeNames)) { [self] key in try attributes(of: key) }
    }

    /// The attributes the row of `key` holds, as ``resourceAttributes`` reads them: empty when no
    /// row holds it (a folder, the root `""`, or a key that breaks the identity rule, which no row
    /// can hold).
    ///
    /// - Throws: ``SQLiteLoaderError/database(message:)`` when SQLite fails, or a value cannot be
    ///   read as the plan's SQL would compare it.
    public func attributes(of key: String) throws -> [String: String] {
        guard !attributeNames.isEmpty, ResourceIdentity.path.violation(in: key) == nil else { return [:] }
        let columns = quotedColumns.map { "typeof(\($0)), \($0)" }.joined(separator: ", ")
        let rows = try database.execute("SELECT \(columns) FROM \(quotedTable) WHERE name = ?", [.text(key)])
        guard let row = rows.first else { return [:] }
        var attributes: [String: String] = [:]
        for (index, name) in attributeNames.enumerated() {
            let type = String(decoding: row[2 * index], as: UTF8.self)
            guard type != "null" else { continue }
            guard type == "text" || type == "integer",
                let value = String(data: row[2 * index + 1], encoding: .utf8)
            else {
                throw SQLiteLoaderError.database(
                    message: "the row \(key.debugDescription) holds a \(type) in the column "
                        + "\(attributeColumns[name]!.debugDescription), not text")
            }
            if let problem = Self.problem(with: value) {
                throw SQLiteLoaderError.database(
                    message: "the row \(key.debugDescription) holds in the column "
                        + "\(attributeColumns[name]!.debugDescription) a value that \(problem)")
            }
            attributes[name] = value
        }
        return attributes
    }

    /// Why an attribute value cannot be held, or `nil`: one not in NFC, or holding a control
    /// character, would compare differently in SQL (bytes) and in a decision. The value itself is
    /// never said: it may be one the decision log masks, and this text becomes a gate's reason.
    private static func problem(with value: String) -> String? {
        switch ResourceIdentity.text.violation(in: value) {
        case nil: nil
        case .notNFC: "is not in Unicode NFC"
        case .controlCharacter(let scalar, let offset):
            "holds the control character \(scalar.codePoint) at position \(offset)"
        default: "is not a text a decision can compare"
        }
    }

    /// Removes the row of `key`.
    ///
    /// - Throws: ``SQLiteLoaderError/notFound(key:)`` when no row holds it.
    public func remove(_ key: String) async throws {
        try Self.check(key)
        let removed = try database.execute(
            "DELETE FROM \(quotedTable) WHERE name = ? RETURNING name", [.text(key)])
        if removed.isEmpty { throw SQLiteLoaderError.notFound(key: key) }
    }

    /// Every key under the folder `prefix` (`""` for the root), sorted by UTF-8 bytes.
    public func keys(under prefix: String) async throws -> [String] {
        try select(under: prefix, where: "(1 = 1)")
    }

    /// The keys under `prefix` that `plan` permits, selected by the plan's SQL, sorted by UTF-8
    /// bytes.
    public func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [String] {
        try select(
            under: prefix,
            where: plan.sql(column: "name", attributeColumns: attributeColumns, dialect: .sqlite))
    }

    /// The attributes of ``attributeColumns``: a listing's plan keeps its predicates on them.
    public var filteredAttributeNames: Set<String> { Set(attributeNames) }

    /// The names under `prefix` for which `condition` holds, sorted (SQLite's binary order is
    /// the order of the UTF-8 bytes).
    private func select(under prefix: String, where condition: String) throws -> [String] {
        var sql = "SELECT name FROM \(quotedTable) WHERE \(condition)"
        var values: [SQLiteDatabase.Value] = []
        if !prefix.isEmpty {
            try Self.check(prefix)
            // Names starting "prefix/": at or after "prefix/" and before "prefix0" ('0' follows '/').
            sql += " AND name >= ? AND name < ?"
            values = [.text(prefix + "/"), .text(prefix + "0")]
        }
        let rows = try database.execute(sql + " ORDER BY name", values)
        return rows.map { String(decoding: $0[0], as: UTF8.self) }
    }

    /// Refuses a key that breaks `ResourceIdentity.path`.
    private static func check(_ key: String) throws(SQLiteLoaderError) {
        if let violation = ResourceIdentity.path.violation(in: key) {
            throw .invalidKey(key: key, reason: violation.description)
        }
    }
}
