/// A service of the app's own: documents that can be read, saved, deleted, shared and listed.
/// Nothing in it knows about access control; `GuardedDocuments` puts a gate in front of it.
protocol DocumentStore: Sendable {
    /// The text of a document.
    func read(_ id: String) async throws -> String
    /// Saves `text` as the document `id`, creating it (owned by `owner`) if it is new.
    func save(_ text: String, to id: String, owner: String) async throws
    /// Deletes a document.
    func delete(_ id: String) async throws
    /// Lets `user` see a document.
    func share(_ id: String, with user: String) async throws
    /// The ids of the documents in a folder, in order.
    func list(_ folder: String) async throws -> [String]
    /// Who owns a document, if it exists: the gate's requests carry it as the attribute `owner`.
    func owner(of id: String) async -> String?
}

/// What a `DocumentStore` throws for a document that does not exist.
struct NoSuchDocument: Error, CustomStringConvertible {
    var id: String
    var description: String { "no document \(id)" }
}

/// The store itself: documents in memory.
actor InMemoryDocuments: DocumentStore {
    private var texts: [String: String] = [:]
    private var owners: [String: String] = [:]
    private var shares: [String: Set<String>] = [:]
    /// How many calls reached the store: a denied call must never add one.
    private(set) var calls = 0

    func read(_ id: String) throws -> String {
        calls += 1
        guard let text = texts[id] else { throw NoSuchDocument(id: id) }
        return text
    }

    func save(_ text: String, to id: String, owner: String) {
        calls += 1
        texts[id] = text
        if owners[id] == nil { owners[id] = owner }
    }

    func delete(_ id: String) throws {
        calls += 1
        guard texts.removeValue(forKey: id) != nil else { throw NoSuchDocument(id: id) }
        owners[id] = nil
        shares[id] = nil
    }

    func share(_ id: String, with user: String) throws {
        calls += 1
        guard texts[id] != nil else { throw NoSuchDocument(id: id) }
        shares[id, default: []].insert(user)
    }

    func list(_ folder: String) -> [String] {
        calls += 1
        return texts.keys.filter { $0.hasPrefix(folder + "/") }.sorted()
    }

    func owner(of id: String) -> String? {
        owners[id]
    }

    /// Who a document is shared with.
    func sharedWith(_ id: String) -> Set<String> {
        shares[id] ?? []
    }
}
