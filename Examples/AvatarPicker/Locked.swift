import Foundation

/// A value shared between tasks, guarded by a lock: what this example needs to record calls and
/// decisions from concurrent code, written here with Foundation's `NSLock` (the package's own
/// lock is not public API).
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
