/// Writes and deletes through the gate: when the base also stores, so does the proxy.
///
/// Each call asks the gatekeepers as `load` does (identity check first, gates in order, one
/// observer record per decision), with its own action: `"write"` for ``store(_:for:)`` and
/// `"delete"` for ``remove(_:)``, whatever ``action`` says (that is the action of `load`). A
/// denied call never reaches the base and throws ``AccessDenied``; an allowed call forwards
/// the exact key and resource and returns the base's outcome unchanged.
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
    /// - Throws: ``AccessDenied`` when a gate does not allow or fails (the base is not reached);
    ///   `CancellationError` when the task was cancelled before or while the gatekeepers were
    ///   asked; otherwise the base's own error, unchanged.
    public func store(_ resource: Base.Resource, for key: Base.Key) async throws {
        try await authorize(key, action: .write)
        try await base.store(resource, for: key)
    }

    /// Asks the gatekeepers whether `key` may be deleted (action `"delete"`) and, if all allow,
    /// removes it from the base.
    ///
    /// - Throws: ``AccessDenied`` when a gate does not allow or fails (the base is not reached);
    ///   `CancellationError` when the task was cancelled before or while the gatekeepers were
    ///   asked; otherwise the base's own error, unchanged.
    public func remove(_ key: Base.Key) async throws {
        try await authorize(key, action: .delete)
        try await base.remove(key)
    }
}
