#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// State shared between tasks, guarded by one lock. Shared by the package's modules; not API.
///
/// `withLock` is inlinable so that callers in other modules get it specialized for their state
/// (no generic metadata lookups per call). The lock and the state each sit behind a pointer
/// allocated once, so the lock never moves, mutating the state through `withLock` needs no
/// dynamic exclusivity check, and taking the lock is a direct call: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere (no `NSLock` method dispatch in between).
@usableFromInline
package final class LockedState<State>: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline typealias Primitive = os_unfair_lock
    #else
        @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    @usableFromInline let lock: UnsafeMutablePointer<Primitive>
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// Creates the lock around an initial state.
    @inlinable
    package init(_ state: State) {
        lock = UnsafeMutablePointer.allocate(capacity: 1)
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(lock, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        #endif
        self.state = UnsafeMutablePointer.allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
        #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&state.pointee)
    }
}
