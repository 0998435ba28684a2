import Foundation

/// State shared between tasks, guarded by one lock. Shared by the package's modules; not API.
package final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Creates the lock around an initial state.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
