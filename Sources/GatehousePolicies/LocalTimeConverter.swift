import Foundation
import GatehouseCore

/// Turns an instant into the weekday and minute on the wall clock of one time zone, without
/// `Calendar` on the hot path.
///
/// It caches the zone's UTC offset together with the span of instants for which it holds: from
/// the instant it was looked up until the zone's next transition (at most one day, so a zone
/// without transitions is looked up again daily). Inside the span the local time is the instant
/// plus the offset, split into days and minutes with integer arithmetic. An instant outside the
/// span (past the transition, or earlier than the lookup because the clock went back) looks the
/// offset up again. Copies share one cache.
struct LocalTimeConverter: Sendable {
    /// The weekday and minute the wall clock shows.
    struct Reading: Hashable {
        /// 0 for Monday through 6 for Sunday.
        var weekdayIndex: Int
        /// 0 through 1439.
        var minuteOfDay: Int
    }

    /// An offset and the instants, in seconds since 1970, for which it holds: `start..<end`.
    private struct Span {
        var start: Double
        var end: Double
        var offset: Int
    }

    /// The longest a looked-up offset is trusted without asking the zone again.
    private static let longestSpan: Double = 86_400

    let timeZone: TimeZone
    private let span: LockedState<Span>

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        span = LockedState(Span(start: .infinity, end: -.infinity, offset: 0))
    }

    /// The wall-clock reading at `seconds` since 1970, which must lie within
    /// ``TimeWindow/supportedInstants`` (the caller checks).
    func reading(atSecondsSince1970 seconds: Double) -> Reading {
        let offset = offset(at: seconds)
        let local = Int(seconds.rounded(.down)) + offset
        let (days, secondOfDay) = Self.floorDivision(local, by: 86_400)
        // 1970-01-01, day 0, was a Thursday: index 3.
        let weekday = Self.floorDivision(days + 3, by: 7).remainder
        return Reading(weekdayIndex: weekday, minuteOfDay: secondOfDay / 60)
    }

    private func offset(at seconds: Double) -> Int {
        let cached = span.withLock { $0 }
        if seconds >= cached.start && seconds < cached.end {
            return cached.offset
        }
        let fresh = lookUp(at: seconds)
        span.withLock { stored in
            // Keep the widest span when racing lookups found the same offset and transition.
            if stored.offset == fresh.offset && stored.end == fresh.end {
                stored.start = min(stored.start, fresh.start)
            } else {
                stored = fresh
            }
        }
        return fresh.offset
    }

    private func lookUp(at seconds: Double) -> Span {
        let instant = Date(timeIntervalSince1970: seconds)
        var end = seconds + Self.longestSpan
        if let transition = timeZone.nextDaylightSavingTimeTransition(after: instant) {
            end = min(end, transition.timeIntervalSince1970)
        }
        return Span(start: seconds, end: end, offset: timeZone.secondsFromGMT(for: instant))
    }

    /// Quotient rounded toward negative infinity, and the matching non-negative remainder.
    private static func floorDivision(_ value: Int, by divisor: Int) -> (quotient: Int, remainder: Int) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
