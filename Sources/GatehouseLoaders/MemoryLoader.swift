import GatehouseCore

/// A thread-safe in-memory store that loads resources by key; resources can be set and removed
/// while it is in use. A missing key throws ``ResourceNotFound``.
public struct MemoryLoader<Key: Hashable & Sendable, Resource: Sendable>: ResourceLoading {
    @usableFromInline let storage: LockedState<[Key: Resource]>

    /// Creates a loader holding `resources`.
    public init(_ resources: [Key: Resource] = [:]) {
        storage = LockedState(resources)
    }

    /// Returns the resource stored for `key`.
    ///
    /// - Throws: ``ResourceNotFound`` naming the key when nothing is stored for it.
    @inlinable
    public func load(_ key: Key) async throws -> Resource {
        guard let resource = storage.withLock({ $0[key] }) else {
            throw ResourceNotFound(key: String(describing: key))
        }
        return resource
    }

    /// Stores `resource` for `key`, replacing what was there.
    public func set(_ resource: Resource, for key: Key) {
        storage.withLock { $0[key] = resource }
    }

    /// Removes what is stored for `key` and returns it, if anything was.
    @discardableResult
    public func remove(_ key: Key) -> Resource? {
        storage.withLock { $0.removeValue(forKey: key) }
    }

    /// The number of stored resources.
    public var count: Int {
        storage.withLock { $0.count }
    }
}
