import Foundation

/// A counter shared between tasks.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Creates a counter at zero.
    public init() {}

    /// Adds one.
    public func increment() { lock.withLock { count += 1 } }

    /// The count so far.
    public var value: Int { lock.withLock { count } }
}
