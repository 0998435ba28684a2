import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseSQLite

extension PluginRegistry {
    /// The built-in types and the command's own: the `sqlite` loader
    /// (``registerSQLiteLoader()``). The registry `gatehouse` reads its configurations with.
    public static var command: PluginRegistry {
        var registry = PluginRegistry()
        try? registry.registerSQLiteLoader()
        return registry
    }

    /// Registers the `sqlite` loader type: a table of a SQLite database (`SQLiteLoader`), with
    /// `"path"`, optional `"table"` and optional `"attributeColumns"` (`{"owner": "owner_id"}`).
    /// With attribute columns, its rows are also the service's resource attributes (a service
    /// over it names no `"resourceAttributes"`), and a listing pushes the plan's attribute
    /// predicates down. The database is opened at first use, so `validate` opens nothing.
    /// Throws a ``ConfigurationError`` when the name `sqlite` is taken.
    public mutating func registerSQLiteLoader() throws {
        try registerLoader(
            "sqlite", settings: SQLiteSettings.self, describe: SQLiteSettings.describe,
            factory: { settings, context in try ConfiguredSQLite(settings, context) })
    }
}

/// The settings of a `sqlite` loader.
struct SQLiteSettings: Decodable, Sendable {
    var path: String
    var table: String?
    var attributeColumns: [String: String]?

    /// `sqlite: table resources in docs.sqlite (owner in owner_id)`.
    static func describe(_ settings: SQLiteSettings) -> String {
        let columns = (settings.attributeColumns ?? [:]).sorted { $0.key < $1.key }
            .map { "\($0.key) in \($0.value)" }
        return "sqlite: table \(settings.table ?? "resources") in \(settings.path)"
            + (columns.isEmpty ? "" : " (\(columns.joined(separator: ", ")))")
    }
}

/// A configured `sqlite` loader: its settings checked when it is built, the database opened at
/// its first use (and again after a failed open). With attribute columns it is also the
/// service's ``AttributeSource``.
struct ConfiguredSQLite: ResourceStoring, FilteredListing, AttributeSource {
    let path: String
    let table: String
    let attributeColumns: [String: String]
    private let opened = LockedState<SQLiteLoader?>(nil)

    init(_ settings: SQLiteSettings, _ context: PluginContext) throws {
        var errors = ConfigurationError(issues: [])
        if settings.table?.isEmpty == true {
            errors.issues.append(.init(path: "table", message: "must not be empty"))
        }
        let columns = settings.attributeColumns ?? [:]
        if let problem = Self.problem({ () throws(SQLiteLoaderError) in
            try SQLiteLoader.check(path: settings.path)
        }) {
            errors.issues.append(.init(path: "path", message: problem))
        }
        if let problem = Self.problem({ () throws(SQLiteLoaderError) in
            try SQLiteLoader.check(attributeColumns: columns)
        }) {
            errors.issues.append(.init(path: "attributeColumns", message: problem))
        }
        if !errors.issues.isEmpty { throw errors }
        path = settings.path == ":memory:" ? settings.path : context.resolve(settings.path).path
        table = settings.table ?? "resources"
        attributeColumns = columns
    }

    /// What `check`, one of ``SQLiteLoader``'s checks before opening anything, refuses.
    private static func problem(_ check: () throws(SQLiteLoaderError) -> Void) -> String? {
        do {
            try check()
            return nil
        } catch {
            guard case .database(let message) = error else { return error.description }
            return message
        }
    }

    /// The loader, opened now if it is not yet.
    private func loader() throws -> SQLiteLoader {
        try opened.withLock { opened in
            if let opened { return opened }
            let loader = try SQLiteLoader(path: path, table: table, attributeColumns: attributeColumns)
            opened = loader
            return loader
        }
    }

    func load(_ key: String) async throws -> Data { try await loader().load(key) }

    func store(_ resource: Data, for key: String) async throws {
        try await loader().store(resource, for: key)
    }

    func remove(_ key: String) async throws { try await loader().remove(key) }

    func keys(under prefix: String) async throws -> [String] { try await loader().keys(under: prefix) }

    func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [String] {
        try await loader().keys(under: prefix, permittedBy: plan)
    }

    var filteredAttributeNames: Set<String> { Set(attributeColumns.keys) }

    func attributeNames() async throws -> ResourceAttributeNames { .only(Set(attributeColumns.keys)) }

    func attributes(of resource: String) async throws -> [String: String] {
        try loader().attributes(of: resource)
    }
}
