import Foundation

/// State shared between tasks, guarded by one lock. Shared by the package's modules; not API.
///
/// `withLock` is inlinable so that callers in other modules get it specialized for their state
/// (no generic metadata lookups per call), and the state sits behind a pointer allocated once, so
/// that mutating it through `withLock` needs no dynamic exclusivity check.
@usableFromInline
package final class LockedState<State>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// Creates the lock around an initial state.
    @inlinable
    package init(_ state: State) {
        self.state = UnsafeMutablePointer.allocate(capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state.pointee)
    }
}
