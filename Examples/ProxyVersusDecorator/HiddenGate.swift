import GatehouseCore

/// A gate whose type does not say it is one. `CachingLoader(AccessProxy(...))` does not compile
/// (the compiler says to put the cache behind the gate), so the lesson builds the hazard through
/// this disguise, as a cache over a service that hides a gate inside it would.
struct HiddenGate<Base: ResourceLoading>: ResourceLoading {
    /// The gate, out of sight.
    let base: Base

    /// Forwards to the gate, unchanged.
    func load(_ key: Base.Key) async throws -> Base.Resource {
        try await base.load(key)
    }
}
