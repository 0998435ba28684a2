import Foundation

/// The clock of `gatehouse test`: it reads the instant the case being decided pins with `at`,
/// or the real time for a case that pins none. One configuration is assembled with it for the
/// whole table, and cases are decided one at a time, each after pinning its own instant.
final class CaseClock: @unchecked Sendable {
    private let lock = NSLock()
    private var pinned: Date?

    /// Makes the clock read `instant`, or the real time when `nil`.
    func pin(_ instant: Date?) {
        lock.withLock { pinned = instant }
    }

    /// What the clock reads now.
    var now: Date {
        lock.withLock { pinned } ?? Date()
    }
}
