// The services a proxy stands in front of: loading, storing and listing.

/// A service that loads a resource for a key: the interface that both a real loader and the
/// proxy guarding it conform to.
///
/// Callers depend on `ResourceLoading` and cannot tell whether they hold the real service or an
/// ``AccessProxy`` in front of it; that is what makes the proxy a drop-in gate.
public protocol ResourceLoading<Key, Resource>: Sendable {
    /// The key that names a resource, such as an asset identifier or a relative path.
    associatedtype Key: Sendable
    /// The loaded resource, such as thumbnail bytes.
    associatedtype Resource: Sendable
    /// The gate this service is, if it is one: `Never` (the default) for a real service,
    /// ``AccessGate`` for an ``AccessProxy``. A cache takes only a service whose `Gate` is
    /// `Never`, so that a cache in front of a gate does not compile.
    associatedtype Gate = Never

    /// Loads the resource named by `key`, or throws the loader's own error.
    func load(_ key: Key) async throws -> Resource
}

/// A service that also writes and deletes resources: the write side of ``ResourceLoading``.
/// ``AccessProxy`` conforms when its base does, asking for ``AccessAction/write`` and
/// ``AccessAction/delete``.
///
/// A conforming service promises that a `load` which starts after `store` returned sees the
/// stored resource (or a later one), and that a `load` which starts after `remove` returned
/// does not find the key, until it is stored again.
public protocol ResourceStoring<Key, Resource>: ResourceLoading {
    /// Stores `resource` for `key`, replacing what was there.
    ///
    /// - Throws: The service's own error when the key cannot be written.
    func store(_ resource: Resource, for key: Key) async throws

    /// Removes what is stored for `key`.
    ///
    /// - Throws: The service's own error, such as its not-found error when nothing is stored
    ///   for `key` (the package's loaders throw one).
    func remove(_ key: Key) async throws
}

/// A service that names the keys it holds under a folder.
///
/// A prefix names a folder without a trailing slash (`"docs"`, `"docs/2026"`; `""` is the
/// root). ``keys(under:)`` returns every key under it, recursively, each whole (as `load` takes
/// it), once, sorted (`String` keys by their UTF-8 bytes); `docsx/c.txt` is not under `docs`.
/// ``AccessProxy`` conforms when its base does, and a key the caller may not read is never seen.
public protocol ResourceListing<Key>: Sendable {
    /// The key that names a resource; the same as ``ResourceLoading/Key`` for a service that
    /// also loads.
    associatedtype Key: Sendable

    /// Every key under the folder `prefix` (`""` for the root), recursively, sorted.
    ///
    /// - Throws: The service's own error, such as when `prefix` names no folder it can list.
    func keys(under prefix: String) async throws -> [Key]
}
