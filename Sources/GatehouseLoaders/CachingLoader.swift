import Foundation
import GatehouseCore

/// A least-recently-used cache in front of its base loader, with hard count and cost limits;
/// concurrent misses share one base load, and errors are never cached (see docs/loaders.md). A
/// decorator: it changes *how* the base is reached, never *whether*.
///
/// Place it behind a gate, `AccessProxy(CachingLoader(loader))`: a cache in front of the gate
/// would keep serving a resource after access to it was revoked.
public struct CachingLoader<Base: ResourceLoading>: ResourceLoading where Base.Key: Hashable {
    /// The decorated loader, asked on every miss.
    public let base: Base
    /// The most entries the cache holds.
    public let countLimit: Int
    /// The largest total cost of the entries the cache holds.
    public let costLimit: Int

    private let cost: @Sendable (Base.Resource) -> Int
    let state: LockedState<CacheState<Base.Key, Base.Resource>>

    /// Creates a cache in front of `base`; a `countLimit` of 0 caches nothing, and `cost` (1 by
    /// default, negative counts as 0) prices one resource.
    public init(
        _ base: Base,
        countLimit: Int,
        costLimit: Int = .max,
        cost: @escaping @Sendable (Base.Resource) -> Int = { _ in 1 }
    ) where Base.Gate == Never {
        self.base = base
        self.countLimit = Swift.max(0, countLimit)
        self.costLimit = Swift.max(0, costLimit)
        self.cost = cost
        self.state = LockedState(
            CacheState(entries: LeastRecentlyUsed(countLimit: countLimit, costLimit: costLimit)))
    }

    /// Creates a cache of `Data` in front of `base`, limited to `countLimit` entries and
    /// `byteLimit` bytes in total.
    public init(_ base: Base, countLimit: Int, byteLimit: Int)
    where Base.Resource == Data, Base.Gate == Never {
        self.init(base, countLimit: countLimit, costLimit: byteLimit, cost: { $0.count })
    }

    /// Returns the cached resource for `key`, or loads it from the base and caches it.
    ///
    /// - Throws: The base's error, unchanged; it is not cached.
    public func load(_ key: Base.Key) async throws -> Base.Resource {
        if let value = state.withLock({ $0.entries.value(forKey: key) }) { return value }
        return try await loadMissing(key)
    }

    /// Joins or starts the load of `key`, checking the entries again: a load may have finished.
    /// Kept apart from `load` so that a hit runs in a small async frame.
    private func loadMissing(_ key: Base.Key) async throws -> Base.Resource {
        let lookup = state.withLock { state -> CacheLookup<Base.Resource> in
            if let value = state.entries.value(forKey: key) { return .hit(value) }
            return .wait(state.inFlight[key] ?? startLoad(key, in: &state))
        }
        switch lookup {
        case .hit(let value):
            return value
        case .wait(let load):
            return try await load.task.value
        }
    }

    /// Called under the lock.
    private func startLoad(
        _ key: Base.Key, in state: inout CacheState<Base.Key, Base.Resource>
    ) -> InFlightLoad<Base.Resource> {
        let identifier = state.nextIdentifier
        state.nextIdentifier &+= 1
        let task = Task { [base, cost, state = self.state] in
            do {
                let value = try await base.load(key)
                let valueCost = cost(value)
                state.withLock { state in
                    guard state.inFlight[key]?.identifier == identifier else { return }
                    state.inFlight[key] = nil
                    state.entries.insert(value, forKey: key, cost: valueCost)
                }
                return value
            } catch {
                state.withLock { state in
                    if state.inFlight[key]?.identifier == identifier { state.inFlight[key] = nil }
                }
                throw error
            }
        }
        let load = InFlightLoad(identifier: identifier, task: task)
        state.inFlight[key] = load
        return load
    }

    /// The number of cached entries.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// The total cost of the cached entries.
    public var totalCost: Int {
        state.withLock { $0.entries.totalCost }
    }

    /// Removes the cached entry for `key`, returning it, and detaches a load of `key` in flight
    /// so that its result is not cached.
    @discardableResult
    public func removeValue(forKey key: Base.Key) -> Base.Resource? {
        state.withLock { state in
            state.inFlight[key] = nil
            return state.entries.removeValue(forKey: key)
        }
    }

    /// Removes every cached entry and detaches every load in flight so that its result is not cached.
    public func removeAll() {
        state.withLock { state in
            state.inFlight.removeAll()
            state.entries.removeAll()
        }
    }
}

/// Listings through the cache: always forwarded to the base, never cached.
extension CachingLoader: ResourceListing where Base: ResourceListing {
    /// The base's keys under the folder `prefix`; throws the base's error.
    public func keys(under prefix: String) async throws -> [Base.Key] {
        try await base.keys(under: prefix)
    }
}

/// Filtered listings through the cache: forwarded to the base, never cached, so a proxy in front
/// of the cache pushes its plan down to the base.
extension CachingLoader: FilteredListing where Base: FilteredListing {
    /// The base's.
    public var filteredAttributeNames: Set<String> { base.filteredAttributeNames }

    /// The base's keys under `prefix` that `plan` may permit; throws the base's error.
    public func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [Base.Key] {
        try await base.keys(under: prefix, permittedBy: plan)
    }
}

/// Writes and deletes are forwarded, then the key is invalidated (also when the base throws), so a
/// read after a write never returns the old value. The written resource is not cached: two racing
/// writes could reach the cache in the other order and leave the older value cached.
extension CachingLoader: ResourceStoring where Base: ResourceStoring {
    /// Stores `resource` for `key` in the base, then invalidates `key`; throws the base's error.
    public func store(_ resource: Base.Resource, for key: Base.Key) async throws {
        defer { removeValue(forKey: key) }
        try await base.store(resource, for: key)
    }

    /// Removes `key` from the base, then invalidates it; throws the base's error.
    public func remove(_ key: Base.Key) async throws {
        defer { removeValue(forKey: key) }
        try await base.remove(key)
    }
}

/// The wrong order does not compile: a cache in front of a gate (any service whose `Gate` is
/// `AccessGate`) would keep serving a resource after access to it was revoked.
extension CachingLoader where Base.Gate == AccessGate {
    /// Unavailable: a cache stands behind the gate, never in front of it.
    @available(
        *, unavailable,
        message:
            "put the cache behind the gate, AccessProxy(CachingLoader(loader, ...), ...): a cache in front of it keeps serving after access is revoked"
    )
    public init(
        _ base: Base, countLimit: Int, costLimit: Int = .max,
        cost: @escaping @Sendable (Base.Resource) -> Int = { _ in 1 }
    ) {
        fatalError("unavailable")
    }

    /// Unavailable: a cache stands behind the gate, never in front of it.
    @available(
        *, unavailable,
        message:
            "put the cache behind the gate, AccessProxy(CachingLoader(loader, ...), ...): a cache in front of it keeps serving after access is revoked"
    )
    public init(_ base: Base, countLimit: Int, byteLimit: Int) where Base.Resource == Data {
        fatalError("unavailable")
    }
}

/// A ``CachingLoader``'s entries and loads in flight, behind one lock.
struct CacheState<Key: Hashable & Sendable, Value: Sendable> {
    var entries: LeastRecentlyUsed<Key, Value>
    var inFlight: [Key: InFlightLoad<Value>] = [:]
    /// So a detached load (overtaken by a write or removal) cannot touch a newer one's entry.
    var nextIdentifier: UInt64 = 0
}

/// A base load shared by every caller that missed the same key while it runs.
struct InFlightLoad<Value: Sendable> {
    var identifier: UInt64
    var task: Task<Value, any Error>
}

/// What a miss found under the lock: a value cached meanwhile, or a load to wait for outside it.
enum CacheLookup<Value: Sendable> {
    case hit(Value)
    case wait(InFlightLoad<Value>)
}
