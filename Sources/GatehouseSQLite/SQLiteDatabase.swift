import Foundation
import GatehouseCore

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// One SQLite connection behind a lock: the C calls of ``SQLiteLoader``, and nothing else.
final class SQLiteDatabase: Sendable {
    /// A value bound to a `?` of a statement.
    enum Value {
        case text(String)
        case blob(Data)
        case null
    }

    /// The connection's handle. A C pointer is not `Sendable`, so neither is a lock holding it
    /// bare; this one may cross tasks because SQLite opened it in serialized mode
    /// (`SQLITE_OPEN_FULLMUTEX`) and it is used only under the lock.
    private struct Connection: @unchecked Sendable {
        let handle: OpaquePointer
    }

    private let connection: LockedState<Connection>

    /// Opens (creating if needed) the database at `path`: a plain file path, or `:memory:`.
    init(path: String) throws(SQLiteLoaderError) {
        try Self.checkPlain(path)
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close(handle)
            throw .database(message: message)
        }
        connection = LockedState(Connection(handle: handle))
    }

    /// Refuses a `path` that is not a plain file path or `:memory:`. Opened with the URI flag
    /// off, a build of SQLite may read `file:` URIs anyway (SQLITE_USE_URI): a name that is not a
    /// plain path is refused before SQLite sees it.
    static func checkPlain(_ path: String) throws(SQLiteLoaderError) {
        guard
            path == ":memory:"
                || (!path.isEmpty && !path.lowercased().hasPrefix("file:") && !path.contains("\0"))
        else {
            throw .database(
                message:
                    "cannot open \(path.debugDescription): expected a plain file path (or :memory:), not a URI"
            )
        }
    }

    deinit {
        connection.withLock { _ = sqlite3_close($0.handle) }
    }

    /// Runs `sql` with `values` bound to its `?`s and returns the rows, each its columns as
    /// `Data` (a NULL as empty).
    @discardableResult
    func execute(_ sql: String, _ values: [Value] = []) throws(SQLiteLoaderError) -> [[Data]] {
        let outcome: Result<[[Data]], SQLiteLoaderError> = connection.withLock { connection in
            let database = connection.handle
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                return .failure(Self.error(database))
            }
            defer { sqlite3_finalize(statement) }
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case .text(let text):
                    sqlite3_bind_text(statement, position, text, -1, Self.transient)
                case .blob(let data):
                    _ = data.withUnsafeBytes { bytes in
                        sqlite3_bind_blob(
                            statement, position, bytes.baseAddress, Int32(bytes.count), Self.transient)
                    }
                case .null:
                    sqlite3_bind_null(statement, position)
                }
            }
            var rows: [[Data]] = []
            while true {
                switch sqlite3_step(statement) {
                case SQLITE_ROW:
                    rows.append(
                        (0..<sqlite3_column_count(statement)).map { column in
                            let count = Int(sqlite3_column_bytes(statement, column))
                            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else {
                                return Data()
                            }
                            return Data(bytes: bytes, count: count)
                        })
                case SQLITE_DONE:
                    return .success(rows)
                default:
                    return .failure(Self.error(database))
                }
            }
        }
        return try outcome.get()
    }

    private static func error(_ database: OpaquePointer) -> SQLiteLoaderError {
        .database(message: String(cString: sqlite3_errmsg(database)))
    }

    /// SQLite copies a bound value before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
