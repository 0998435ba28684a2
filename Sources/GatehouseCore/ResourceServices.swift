/// A service that loads a resource for a key. A real loader and the ``AccessProxy`` guarding it
/// both conform, so a caller cannot tell which it holds.
public protocol ResourceLoading<Key, Resource>: Sendable {
    /// The key that names a resource, such as an asset identifier or a relative path.
    associatedtype Key: Sendable
    /// The loaded resource, such as thumbnail bytes.
    associatedtype Resource: Sendable
    /// ``AccessGate`` for an ``AccessProxy``, `Never` otherwise: a cache takes only a `Never`
    /// service, so a cache in front of a gate does not compile.
    associatedtype Gate = Never

    /// Loads the resource named by `key`, or throws the loader's own error.
    func load(_ key: Key) async throws -> Resource
}

/// A service that also writes and deletes resources. A `load` that starts after `store` (or
/// `remove`) returned sees the stored resource or a later one (or does not find the key).
public protocol ResourceStoring<Key, Resource>: ResourceLoading {
    /// Stores `resource` for `key`, replacing what was there, or throws the service's own error.
    func store(_ resource: Resource, for key: Key) async throws

    /// Removes what is stored for `key`, or throws the service's own error (such as not found).
    func remove(_ key: Key) async throws
}

/// A service that names the keys it holds under a folder.
public protocol ResourceListing<Key>: Sendable {
    /// The key that names a resource, as ``ResourceLoading/Key``.
    associatedtype Key: Sendable

    /// Every key under the folder `prefix` (`"docs"`, not `"docs/"`; `""` for the root),
    /// recursively, whole, once, sorted (`String` keys by their UTF-8 bytes).
    ///
    /// - Throws: The service's own error, such as when `prefix` names no folder it can list.
    func keys(under prefix: String) async throws -> [Key]
}

extension ResourceLoading {
    /// Whether this service is a gate (``AccessProxy`` or another whose `Gate` is ``AccessGate``),
    /// for a loader whose type is known only at run time.
    package static var isGate: Bool { Gate.self == AccessGate.self }
}
