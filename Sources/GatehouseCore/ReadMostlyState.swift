import CGatehouseLinux

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// State that many tasks read at once and few change: reads on different cores lock
/// different locks, so they run side by side instead of passing one lock's cache line back and
/// forth. Shared by the package's modules; not API.
///
/// The lock is split into stripes, a `pthread_mutex_t` each, on cache lines of their own. A
/// read locks the stripe of the core it runs on (Linux: `sched_getcpu`, which reads the core
/// without a system call; other platforms: the stripe of its thread). A change locks every
/// stripe, in order, so it waits for the reads in progress and keeps new ones out. Reads cost
/// what one uncontended lock costs; a change costs one lock per stripe. Use it where a read is
/// the common case (a loader's contents); ``LockedState`` suits state that calls change. It
/// needs no `Synchronization` module, so it works on iOS 16 too. See docs/performance.md,
/// "Reads that scale with cores".
///
/// A read must not change the state, nor read or change it again inside (a change inside a
/// read deadlocks).
@usableFromInline
package final class ReadMostlyState<State>: @unchecked Sendable {
    /// Bytes from one stripe's lock to the next: two cache lines, so no two stripes share one
    /// (nor a pair of lines that the processor fetches together).
    @usableFromInline static var stripeStride: Int { 128 }

    /// The stripes' locks, `stripeStride` bytes apart.
    @usableFromInline let stripes: UnsafeMutableRawPointer
    /// The number of stripes: the number of online cores rounded up to a power of two, at most
    /// 64.
    @usableFromInline let stripeCount: Int
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// Creates the lock around an initial state.
    package init(_ state: State) {
        let cores = max(1, min(64, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        var count = 1
        while count < cores { count <<= 1 }
        stripeCount = count
        stripes = UnsafeMutableRawPointer.allocate(
            byteCount: count * Self.stripeStride, alignment: Self.stripeStride)
        for index in 0..<count {
            let lock = (stripes + index * Self.stripeStride).bindMemory(
                to: pthread_mutex_t.self, capacity: 1)
            lock.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(lock, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }
        self.state = UnsafeMutablePointer.allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        for index in 0..<stripeCount {
            pthread_mutex_destroy(lock(index))
        }
        stripes.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The lock of stripe `index`.
    func lock(_ index: Int) -> UnsafeMutablePointer<pthread_mutex_t> {
        (stripes + index * Self.stripeStride).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    /// Locks the stripe of the core this thread runs on (elsewhere: of this thread) and
    /// returns it, for ``unlock(_:)``. Not inlined, so that a read stays small enough for its
    /// callers to inline.
    @usableFromInline
    func lockForReading() -> UnsafeMutablePointer<pthread_mutex_t> {
        let cpu = Int(gatehouse_current_cpu())
        let stripe: Int
        if cpu >= 0 {
            stripe = cpu & (stripeCount - 1)
        } else {
            #if canImport(Darwin)
                let thread = UInt(bitPattern: pthread_self())
            #elseif canImport(Glibc)
                let thread = UInt(pthread_self())
            #else
                let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
            #endif
            stripe = Int(bitPattern: thread >> 12) & (stripeCount - 1)
        }
        let lock = lock(stripe)
        pthread_mutex_lock(lock)
        return lock
    }

    /// Unlocks a stripe that ``lockForReading()`` locked.
    @usableFromInline
    func unlock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_unlock(lock)
    }

    /// Runs `body` on the state while holding this core's stripe: reads on other cores run at
    /// the same time, a change waits until they end. `body` may get a copy of the state (a
    /// retain per reference in it); ``value(for:)`` looks a key up without one.
    @inlinable
    package func read<Result>(_ body: (borrowing State) throws -> Result) rethrows -> Result {
        let lock = lockForReading()
        defer { unlock(lock) }
        return try body(state.pointee)
    }

    /// The value for `key`, read under this core's stripe, for state that is a dictionary.
    @inlinable
    package func value<Key, Value>(for key: Key) -> Value? where State == [Key: Value] {
        let lock = lockForReading()
        defer { unlock(lock) }
        return state.pointee[key]
    }

    /// Locks every stripe, in order.
    @usableFromInline
    func lockAll() {
        for index in 0..<stripeCount {
            pthread_mutex_lock(lock(index))
        }
    }

    /// Unlocks every stripe.
    @usableFromInline
    func unlockAll() {
        for index in 0..<stripeCount {
            pthread_mutex_unlock(lock(index))
        }
    }

    /// Runs `body` on the state while holding every stripe: alone.
    @inlinable
    package func withWriteLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lockAll()
        defer { unlockAll() }
        return try body(&state.pointee)
    }
}
