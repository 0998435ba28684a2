import GatehouseCore

/// A gate whose type does not say it is one, so that a test can build the hazard
/// `CachingLoader(AccessProxy(...))`, which does not compile as written.
public struct HiddenGate<Base: ResourceLoading>: ResourceLoading {
    /// The gate, out of sight.
    public let base: Base

    /// Hides `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// Forwards to the gate, unchanged.
    public func load(_ key: Base.Key) async throws -> Base.Resource {
        try await base.load(key)
    }
}
