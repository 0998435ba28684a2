import GatehouseCore

/// A thread-safe in-memory store that loads resources by key, a stand-in for a document store in
/// tests; a missing key throws ``ResourceNotFound``. Like ``CachingLoader``, it also changes
/// synchronously: ``updateValue(_:forKey:)`` and ``removeValue(forKey:)``.
public struct MemoryLoader<Key: Hashable & Sendable, Resource: Sendable>: ResourceStoring {
    let storage: LockedState<[Key: Resource]>

    /// Creates a loader holding `resources`.
    public init(_ resources: [Key: Resource] = [:]) {
        storage = LockedState(resources)
    }

    /// Returns the resource stored for `key`.
    ///
    /// - Throws: ``ResourceNotFound`` naming the key when nothing is stored for it.
    public func load(_ key: Key) async throws -> Resource {
        guard let resource = storage.withLock({ $0[key] }) else {
            throw ResourceNotFound(key: String(describing: key))
        }
        return resource
    }

    /// Stores `resource` for `key`, replacing what was there, and returns what was there.
    @discardableResult
    public func updateValue(_ resource: Resource, forKey key: Key) -> Resource? {
        storage.withLock { $0.updateValue(resource, forKey: key) }
    }

    /// Removes what is stored for `key` and returns it, if anything was.
    @discardableResult
    public func removeValue(forKey key: Key) -> Resource? {
        storage.withLock { $0.removeValue(forKey: key) }
    }

    /// Stores `resource` for `key`; never throws.
    public func store(_ resource: Resource, for key: Key) async throws {
        updateValue(resource, forKey: key)
    }

    /// Removes what is stored for `key`.
    ///
    /// - Throws: ``ResourceNotFound`` when nothing is stored for it.
    public func remove(_ key: Key) async throws {
        guard removeValue(forKey: key) != nil else {
            throw ResourceNotFound(key: String(describing: key))
        }
    }

    /// The number of stored resources.
    public var count: Int {
        storage.withLock { $0.count }
    }
}

/// Listing a `String`-keyed ``MemoryLoader``: keys are paths whose folders are separated by `/`.
extension MemoryLoader: ResourceListing where Key == String {
    /// Every stored key that begins with `prefix + "/"` (every key for `""`), sorted by UTF-8
    /// bytes. The prefix is matched as text and never refused.
    public func keys(under prefix: String) async throws -> [String] {
        let folder = prefix.isEmpty ? "" : prefix + "/"
        let keys = storage.withLock { storage in
            storage.keys.filter { $0.utf8.starts(with: folder.utf8) }
        }
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
