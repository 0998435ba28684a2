/// Writes and deletes through the gate: when the base also stores, so does the proxy.
///
/// Each call asks the gatekeepers as `load` does, with its own action: ``AccessAction/write``
/// for ``store(_:for:)``, ``AccessAction/delete`` for ``remove(_:)``. A denied call never
/// reaches the base; an allowed one forwards the exact key and resource.
///
/// ```swift
/// let documents = DiskLoader(root: folder).guarded(by: rules)
/// try await AccessContext.with(subject: "alice") {
///     try await documents.store(Data("draft".utf8), for: "docs/plan.txt")  // asks "write"
/// }
/// ```
extension AccessProxy: ResourceStoring where Base: ResourceStoring {
    /// Asks the gatekeepers whether `key` may be written (action `"write"`) and, if all allow,
    /// stores `resource` for it in the base.
    ///
    /// - Throws: ``AccessDenied``, `CancellationError`, or the base's own error, unchanged.
    public func store(_ resource: Base.Resource, for key: Base.Key) async throws {
        try await authorize(key, action: .write)
        try await base.store(resource, for: key)
    }

    /// Asks the gatekeepers whether `key` may be deleted (action `"delete"`) and, if all allow,
    /// removes it from the base.
    ///
    /// - Throws: ``AccessDenied``, `CancellationError`, or the base's own error, unchanged.
    public func remove(_ key: Base.Key) async throws {
        try await authorize(key, action: .delete)
        try await base.remove(key)
    }
}
