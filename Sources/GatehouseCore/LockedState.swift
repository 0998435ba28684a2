/// State shared between tasks, guarded by one lock. Shared by the package's modules; not API.
///
/// The state and the lock sit in one allocation, a `ManagedBuffer` whose header is the state
/// and whose one element is the lock (as swift-nio's `NIOLock` does), so the lock never moves.
/// The lock is an `os_unfair_lock` on Apple platforms and a `pthread_mutex_t` elsewhere
/// (``CorePlatform``).
package struct LockedState<State>: @unchecked Sendable {
    private let buffer: Buffer

    /// Creates the lock around an initial state.
    package init(_ state: State) {
        buffer = Buffer.create(minimumCapacity: 1) { _ in state } as! Buffer
        buffer.withUnsafeMutablePointerToElements { CorePlatform.initialize($0) }
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { state, lock in
            CorePlatform.lock(lock)
            defer { CorePlatform.unlock(lock) }
            return try body(&state.pointee)
        }
    }

    /// The allocation: the state as its header, the lock as its one element.
    private final class Buffer: ManagedBuffer<State, CorePlatform.Lock> {
        deinit {
            withUnsafeMutablePointerToElements { CorePlatform.destroy($0) }
        }
    }
}
