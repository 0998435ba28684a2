import GatehouseCore

/// A thread-safe in-memory store that loads resources by key; resources can be stored and
/// removed while it is in use. A missing key throws ``ResourceNotFound``.
///
/// It adopts `ResourceStoring` (``store(_:for:)`` and `remove(_:)`), and, for `String` keys,
/// `ResourceListing`, so it can stand in for a document store in tests. Like ``CachingLoader``,
/// it also changes synchronously: ``updateValue(_:forKey:)`` and ``removeValue(forKey:)``
/// return what was stored before.
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

    /// Stores `resource` for `key`, replacing what was there: the `ResourceStoring`
    /// requirement. Never throws.
    public func store(_ resource: Resource, for key: Key) async throws {
        updateValue(resource, forKey: key)
    }

    /// Removes what is stored for `key`: the `ResourceStoring` requirement.
    ///
    /// - Throws: ``ResourceNotFound`` naming the key when nothing is stored for it, as
    ///   ``load(_:)`` does (``removeValue(forKey:)`` returns `nil` instead).
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
