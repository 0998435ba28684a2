/// The shared state of a ``CachingLoader``, kept behind one lock: the entries and the loads in flight.
struct CacheState<Key: Hashable & Sendable, Value: Sendable> {
    /// The cached entries.
    var entries: LeastRecentlyUsed<Key, Value>
    /// One shared load per key that missed and is being loaded.
    var inFlight: [Key: InFlightLoad<Value>] = [:]
    /// The identifier the next load in flight gets, so that a detached load cannot remove or
    /// fill the entry of a newer one. It is the key's version as the cache sees it: a write
    /// through ``CachingLoader`` detaches the key's load in flight, so a load that started
    /// before the write completed can never cache the value it read.
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
