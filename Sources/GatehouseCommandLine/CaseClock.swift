import Foundation
import GatehouseCore

/// The clock of `gatehouse test`: it reads the instant the case being decided pins with `at`,
/// or the real time for a case that pins none. One configuration is assembled with it for the
/// whole table, and cases are decided one at a time, each after pinning its own instant.
final class CaseClock: Sendable {
    private let pinned = LockedState<Date?>(nil)

    /// Makes the clock read `instant`, or the real time when `nil`.
    func pin(_ instant: Date?) {
        pinned.withLock { $0 = instant }
    }

    var now: Date {
        pinned.withLock { $0 } ?? Date()
    }
}
