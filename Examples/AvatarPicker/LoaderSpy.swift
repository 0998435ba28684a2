import GatehouseCore

/// A decorator around the real loader, a counting spy: conforms to the same protocol, forwards
/// every call unchanged and remembers the keys, so the story can prove which calls reached the
/// loader and which never did. It decides nothing; the proxy in front of it does.
struct LoaderSpy<Base: ResourceLoading>: ResourceLoading {
    /// The real loader.
    let base: Base
    private let keys = Locked<[Base.Key]>([])

    /// Spies on `base`.
    init(_ base: Base) {
        self.base = base
    }

    /// Records `key`, then loads it from the real loader.
    func load(_ key: Base.Key) async throws -> Base.Resource {
        keys.withLock { $0.append(key) }
        return try await base.load(key)
    }

    /// The keys the real loader was asked for, in order.
    var receivedKeys: [Base.Key] {
        keys.withLock { $0 }
    }

    /// How often the real loader was called.
    var calls: Int {
        keys.withLock { $0.count }
    }
}
