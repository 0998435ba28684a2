#if GATEHOUSE_DARWIN_SHIM
    // Type-checked on Linux against the Darwin declarations of Tests/DarwinShim (.ci/run), not built.
#elseif canImport(Darwin)
    import os
#else
    import Synchronization
#endif

/// State shared between tasks behind one lock: `OSAllocatedUnfairLock` on Apple platforms (where
/// `Mutex` needs macOS 15), `Mutex` elsewhere. See docs/platforms.md.
package final class LockedState<State>: @unchecked Sendable {
    #if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
        private let lock: OSAllocatedUnfairLock<State>

        package init(_ state: State) {
            lock = OSAllocatedUnfairLock(uncheckedState: state)
        }

        package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try lock.withLockUnchecked(body)
        }
    #else
        // The state sits beside the mutex, not inside it: `Mutex<State>` would hand `body` an
        // `inout sending` value, which a `State` that is not `Sendable` cannot be.
        private let mutex = Mutex(())
        private var state: State

        package init(_ state: State) {
            self.state = state
        }

        package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try mutex.withLock { _ in try body(&state) }
        }
    #endif
}
