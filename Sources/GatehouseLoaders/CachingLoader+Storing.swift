import GatehouseCore

/// Writes and deletes through the cache: forwarded to the base, then the key is invalidated.
///
/// **A read after a write never returns the old value.** When the base's `store` or `remove`
/// returns (or throws: the base may have changed anyway), the cache forgets the key's entry and
/// detaches the key's load in flight, under its lock, before the call returns. A load detached
/// this way still hands its result to the callers already waiting for it (they asked before the
/// write completed), but its result is not cached: each load in flight carries a number unique
/// to it, and a finishing load caches its value only while it is still the key's load in flight
/// (``CacheState``). So the first load of the key that starts after the write completed finds no
/// entry and no load to join, and asks the base.
///
/// The written resource is not put into the cache (no write-through): two writes racing to the
/// base could otherwise reach the cache in the other order and leave the older value cached.
extension CachingLoader: ResourceStoring where Base: ResourceStoring {
    /// Stores `resource` for `key` in the base, then invalidates `key` (its entry and its load
    /// in flight), also when the base throws.
    ///
    /// - Throws: The base's error, unchanged.
    public func store(_ resource: Base.Resource, for key: Base.Key) async throws {
        defer { removeValue(forKey: key) }
        try await base.store(resource, for: key)
    }

    /// Removes `key` from the base, then invalidates it (its entry and its load in flight), also
    /// when the base throws.
    ///
    /// - Throws: The base's error, unchanged.
    public func remove(_ key: Base.Key) async throws {
        defer { removeValue(forKey: key) }
        try await base.remove(key)
    }
}
