/// What a ``SQLiteLoader`` throws.
public enum SQLiteLoaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No row holds the key.
    case notFound(key: String)
    /// The key (or a listing's folder) breaks the resource identity rule, so no row may hold it.
    case invalidKey(key: String, reason: String)
    /// SQLite reported an error; `message` is its own text.
    case database(message: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .notFound(let key): "no resource for key \(key.debugDescription)"
        case .invalidKey(let key, let reason): "the key \(key.debugDescription) \(reason)"
        case .database(let message): "SQLite: \(message)"
        }
    }
}
