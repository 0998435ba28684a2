import GatehouseCore

/// Listings through the cache: always forwarded to the base, never cached (a listing changes
/// with every write, and caching it would add nothing a caller could rely on).
extension CachingLoader: ResourceListing where Base: ResourceListing {
    /// The base's keys under the folder `prefix`, asked of the base on every call.
    ///
    /// - Throws: The base's error, unchanged.
    public func keys(under prefix: String) async throws -> [Base.Key] {
        try await base.keys(under: prefix)
    }
}
