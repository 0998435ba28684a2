#if GATEHOUSE_DARWIN_SHIM
    // Type-checked on Linux against the Darwin declarations of Tests/DarwinShim (.ci/run), not built.
#elseif canImport(Darwin)
    import Darwin
    import os
#else
    import Foundation
#endif

/// The system declarations that differ between Darwin and Linux (docs/platforms.md).
enum CorePlatform {
    /// A file's modification and status-change times, as `stat` names them on each system.
    static func times(of status: stat) -> (modified: timespec, changed: timespec) {
        #if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
            return (status.st_mtimespec, status.st_ctimespec)
        #else
            return (status.st_mtim, status.st_ctim)
        #endif
    }
}

/// State shared between tasks behind one lock: `OSAllocatedUnfairLock` on Apple platforms, an
/// `NSLock` (a pthread mutex) elsewhere. See docs/platforms.md. The package's one lock: it is
/// `Sendable` only when its state is, as swift-nio's `NIOLockedValueBox`, so that a value that
/// must not cross tasks cannot be shared by putting it behind a lock.
package final class LockedState<State> {
    #if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
        private let lock: OSAllocatedUnfairLock<State>

        package init(_ state: State) {
            lock = OSAllocatedUnfairLock(uncheckedState: state)
        }

        package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try lock.withLockUnchecked(body)
        }
    #else
        // Not `Mutex`: the thread sanitizer does not see the atomics of the prebuilt
        // Synchronization library, so it reported every access under the lock as a race; it
        // does see the pthread mutex inside `NSLock`.
        private let lock = NSLock()
        private var state: State

        package init(_ state: State) {
            self.state = state
        }

        package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&state)
        }
    #endif
}

/// The lock makes the state safe to share, but only a state that may cross tasks at all:
/// `LockedState<NSMutableString>` is not `Sendable`, and a `@Sendable` closure that captures it
/// does not compile.
extension LockedState: @unchecked Sendable where State: Sendable {}
