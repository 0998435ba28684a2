/// A service that also writes and deletes resources: the write side of ``ResourceLoading``.
///
/// ``AccessProxy`` conforms when its base does, asking its gatekeepers for the action `"write"`
/// before ``store(_:for:)`` and `"delete"` before ``remove(_:)``; a denied call never reaches
/// the base and throws ``AccessDenied``, as a denied `load` does.
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
