import GatehouseCore

/// A thread-safe in-memory store that loads resources by key; resources can be set and removed
/// while it is in use. A missing key throws ``ResourceNotFound``. Loads on different cores never
/// wait for each other (each locks only its core's stripe of the lock); a change waits for the
/// loads in progress.
///
/// It also adopts `ResourceStoring` (``store(_:for:)``, and the asynchronous `remove`), and,
/// for `String` keys, `ResourceListing`, so it can stand in for a document store in tests.
public struct MemoryLoader<Key: Hashable & Sendable, Resource: Sendable>: ResourceStoring {
    @usableFromInline let storage: ReadMostlyState<[Key: Resource]>

    /// Creates a loader holding `resources`.
    public init(_ resources: [Key: Resource] = [:]) {
        storage = ReadMostlyState(resources)
    }

    /// Returns the resource stored for `key`.
    ///
    /// - Throws: ``ResourceNotFound`` naming the key when nothing is stored for it.
    @inlinable
    public func load(_ key: Key) async throws -> Resource {
        guard let resource = storage.value(for: key) else {
            throw ResourceNotFound(key: String(describing: key))
        }
        return resource
    }

    /// Stores `resource` for `key`, replacing what was there.
    public func set(_ resource: Resource, for key: Key) {
        storage.withWriteLock { $0[key] = resource }
    }

    /// Removes what is stored for `key` and returns it, if anything was.
    ///
    /// The synchronous removal, kept for existing callers. `ResourceStoring` asks for an
    /// `async throws` `remove(_:)` returning nothing, which a method returning the old value
    /// cannot satisfy, so both exist; which one a call names follows from its context:
    /// `let old = loader.remove(key)` (a value of type `Resource?`) and any call outside an
    /// asynchronous context name this one; `try await loader.remove(key)` names the
    /// requirement. A bare `loader.remove(key)` statement in an asynchronous context names the
    /// requirement too (Swift prefers the asynchronous overload there) and so needs
    /// `try await`; write `_ = loader.remove(key) as Resource?` to keep this one.
    @discardableResult
    public func remove(_ key: Key) -> Resource? {
        storage.withWriteLock { $0.removeValue(forKey: key) }
    }

    /// Stores `resource` for `key`, replacing what was there: ``set(_:for:)`` as the
    /// `ResourceStoring` requirement. Never throws.
    public func store(_ resource: Resource, for key: Key) async throws {
        set(resource, for: key)
    }

    /// Removes what is stored for `key`: the `ResourceStoring` requirement.
    ///
    /// - Throws: ``ResourceNotFound`` naming the key when nothing is stored for it, as
    ///   ``load(_:)`` does (the synchronous `remove(_:)` returns `nil` instead).
    public func remove(_ key: Key) async throws {
        let removed: Resource? = storage.withWriteLock { $0.removeValue(forKey: key) }
        guard removed != nil else { throw ResourceNotFound(key: String(describing: key)) }
    }

    /// The number of stored resources.
    public var count: Int {
        storage.read { $0.count }
    }
}
