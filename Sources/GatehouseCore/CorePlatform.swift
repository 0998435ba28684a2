#if GATEHOUSE_DARWIN_SHIM
    // Type-checked on Linux against the Darwin declarations of Tests/DarwinShim (.ci/run), not built.
#elseif canImport(Darwin)
    import os
#else
    import Synchronization
#endif

/// State shared between tasks, guarded by one lock. Shared by the package's modules; not API.
///
/// The lock is the one system primitive of GatehouseCore that differs between Darwin and Linux,
/// so the type lives in this platform file: an `OSAllocatedUnfairLock` holding the state on
/// Apple platforms (where `Mutex` needs macOS 15), a `Mutex` beside it elsewhere. The Darwin
/// branch is type-checked on Linux against Apple's declarations (docs/platforms.md).
package final class LockedState<State>: @unchecked Sendable {
    #if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
        private let lock: OSAllocatedUnfairLock<State>

        /// Creates the lock around an initial state.
        package init(_ state: State) {
            lock = OSAllocatedUnfairLock(uncheckedState: state)
        }

        /// Runs `body` with exclusive access to the state.
        package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try lock.withLockUnchecked(body)
        }
    #else
        // The state sits beside the mutex, not inside it: `Mutex<State>` would hand `body` an
        // `inout sending` value, which a `State` that is not `Sendable` cannot be.
        private let mutex = Mutex(())
        private var state: State

        /// Creates the lock around an initial state.
        package init(_ state: State) {
            self.state = state
        }

        /// Runs `body` with exclusive access to the state.
        package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try mutex.withLock { _ in try body(&state) }
        }
    #endif
}
