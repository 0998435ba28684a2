import Foundation
import GatehouseCore
import GatehousePolicies

/// Fixtures for the TimeWindow tests: instants, a settable clock, seeded randomness.
enum TimeWindowTesting {
    /// An instant from ISO 8601 text with an offset, such as `2026-01-17T10:12:00+01:00`.
    static func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) {
            return date
        }
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else {
            preconditionFailure("not an ISO 8601 instant: \(text)")
        }
        return date
    }

    /// A clock the test sets; the policy under test reads it.
    final class Clock: Sendable {
        private let current: LockedState<Date>

        init(_ start: Date = Date(timeIntervalSince1970: 0)) {
            current = LockedState(start)
        }

        func set(_ date: Date) {
            current.withLock { $0 = date }
        }

        var now: @Sendable () -> Date {
            { [current] in current.withLock { $0 } }
        }
    }

    /// A window that reads `clock`.
    static func window(
        _ days: Set<Weekday>, _ from: String, _ to: String, in zone: String, clock: Clock
    ) throws -> TimeWindow {
        try TimeWindow(
            days: days, from: LocalTime(from), to: LocalTime(to), timeZone: zone, now: clock.now)
    }

    /// The decision of `policy` with its clock set to `instant`.
    static func decide(_ policy: TimeWindow, _ clock: Clock, at instant: Date) async throws -> AccessDecision
    {
        clock.set(instant)
        return try await policy.evaluate(AccessRequest(resource: "r"))
    }

    /// How many whole minutes from `start` (inclusive) to `end` (exclusive) the policy allows,
    /// asking once per minute with the clock moving forward.
    static func allowedMinutes(
        _ policy: TimeWindow, _ clock: Clock, from start: String, to end: String
    ) async throws -> Int {
        var instant = instant(start)
        let stop = self.instant(end)
        var count = 0
        while instant < stop {
            if try await decide(policy, clock, at: instant).isAllowed {
                count += 1
            }
            instant += 60
        }
        return count
    }

}
