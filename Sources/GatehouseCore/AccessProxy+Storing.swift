/// Writes and deletes through the gate, when the base also stores: asked as `load` is, with the
/// action ``AccessAction/write`` or ``AccessAction/delete``; a denied call never reaches the base.
extension AccessProxy: ResourceStoring where Base: ResourceStoring {
    /// Stores `resource` for `key` in the base if the gate allows `"write"`; throws as
    /// ``AccessProxy/load(_:)`` does.
    public func store(_ resource: Base.Resource, for key: Base.Key) async throws {
        try await authorize(key, action: .write)
        try await base.store(resource, for: key)
    }

    /// Removes `key` from the base if the gate allows `"delete"`; throws as ``AccessProxy/load(_:)``
    /// does.
    public func remove(_ key: Base.Key) async throws {
        try await authorize(key, action: .delete)
        try await base.remove(key)
    }
}
