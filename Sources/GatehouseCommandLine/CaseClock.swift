import Foundation
import GatehouseCore

/// The clock of `gatehouse test`'s one configuration: it reads the instant the case being
/// decided pins with `at`, or the real time for a case that pins none.
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
