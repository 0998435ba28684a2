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

    /// Loads the resource named by `key`, or throws the loader's own error.
    func load(_ key: Key) async throws -> Resource
}
