import GatehouseCore

/// A decorator: writes down every call that passes through it, then forwards the call unchanged
/// to the loader it wraps. Like `CachingLoader`, it changes *how* a call is handled (it leaves a
/// trace) and never *whether*: it has no rule, so it cannot refuse anything.
struct CallLog<Base: ResourceLoading>: ResourceLoading {
    /// The wrapped loader (or the next decorator).
    let base: Base
    private let entries = Locked<[Base.Key]>([])

    /// Logs the calls made to `base`.
    init(_ base: Base) {
        self.base = base
    }

    /// Writes `key` down, then loads it from `base` and returns its result unchanged.
    func load(_ key: Base.Key) async throws -> Base.Resource {
        entries.withLock { $0.append(key) }
        return try await base.load(key)
    }

    /// The keys that passed through, in order.
    var loggedKeys: [Base.Key] {
        entries.withLock { $0 }
    }
}
