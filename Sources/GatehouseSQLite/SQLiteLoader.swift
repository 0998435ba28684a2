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
public struct SQLiteLoader: ResourceStoring, FilteredListing {
    /// The database file.
    public let path: String
    /// The table's name.
    public let table: String

    private let database: SQLiteDatabase
    private let quotedTable: String

    /// Opens the database at `path` (created when missing) and the table `table` in it (created
    /// when missing, with the columns `name TEXT PRIMARY KEY` and `value BLOB`). `path` is a plain
    /// file path, or `:memory:`; a `file:` URI is refused, whatever SQLite's build would make of it.
    ///
    /// - Throws: ``SQLiteLoaderError/database(message:)`` when `path` is not a plain file path,
    ///   the file cannot be opened, or the table cannot be made.
    public init(path: String, table: String = "resources") throws {
        self.path = path
        self.table = table
        database = try SQLiteDatabase(path: path)
        quotedTable = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try database.execute(
            "CREATE TABLE IF NOT EXISTS \(quotedTable) (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
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

    /// Stores `resource` for `key`, replacing what was there.
    public func store(_ resource: Data, for key: String) async throws {
        try Self.check(key)
        try database.execute(
            "INSERT OR REPLACE INTO \(quotedTable) (name, value) VALUES (?, ?)",
            [.text(key), .blob(resource)])
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
        try select(under: prefix, where: plan.sql(column: "name"))
    }

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
