#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// State shared between tasks, guarded by one lock (`os_unfair_lock` on Apple platforms,
/// `pthread_mutex_t` elsewhere), both in one `ManagedBuffer` so the lock never moves.
package struct LockedState<State>: @unchecked Sendable {
    private let buffer: Buffer

    /// Creates the lock around an initial state.
    package init(_ state: State) {
        buffer = Buffer.create(minimumCapacity: 1) { _ in state } as! Buffer
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                let status = pthread_mutex_init(lock, nil)
                precondition(status == 0, "pthread_mutex_init failed: \(status)")
            #endif
        }
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { state, lock in
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

    /// The allocation: the state as its header, the lock as its one element.
    private final class Buffer: ManagedBuffer<State, Lock> {
        deinit {
            #if !canImport(Darwin)
                _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
            #endif
        }
    }

    #if canImport(Darwin)
        private typealias Lock = os_unfair_lock
    #else
        private typealias Lock = pthread_mutex_t
    #endif
}
