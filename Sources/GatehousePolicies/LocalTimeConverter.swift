import Foundation
import GatehouseCore

/// Turns an instant into the weekday and minute on the wall clock of one time zone, without
/// `Calendar` on the hot path and without shared mutable state.
///
/// When made, it asks the zone once for every offset change between 1900 and 2200 (the range
/// ``TimeWindow/supportedInstants`` allows; a few hundred for a zone with daylight saving time,
/// about a quarter of a millisecond) and keeps them in a sorted, immutable table. A reading finds
/// the offset in force by binary search, adds it to the instant and splits the result into days
/// and minutes with integer arithmetic. Concurrent decisions only read the table: nothing is
/// locked and nothing is written, so they scale with cores.
struct LocalTimeConverter: Sendable {
    /// The weekday and minute the wall clock shows.
    struct Reading: Hashable {
        /// 0 for Monday through 6 for Sunday.
        var weekdayIndex: Int
        /// 0 through 1439.
        var minuteOfDay: Int
    }

    let timeZone: TimeZone
    /// The instants, in seconds since 1970, at which an offset starts, ascending; the first is
    /// the start of the supported range.
    private let starts: [Double]
    /// The offset in seconds that starts at the same index of `starts`.
    private let offsets: [Int]

    /// Reads the offsets of `timeZone` for the instants `first..<end`, in seconds since 1970.
    init(timeZone: TimeZone, from first: Double, to end: Double) {
        self.timeZone = timeZone
        var starts = [first]
        var offsets = [timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: first))]
        var instant = Date(timeIntervalSince1970: first)
        while let next = timeZone.nextDaylightSavingTimeTransition(after: instant),
            next.timeIntervalSince1970 < end, next > instant
        {
            starts.append(next.timeIntervalSince1970)
            offsets.append(timeZone.secondsFromGMT(for: next))
            instant = next
        }
        self.starts = starts
        self.offsets = offsets
    }

    /// The wall-clock reading at `seconds` since 1970, which must lie within
    /// ``TimeWindow/supportedInstants`` (the caller checks).
    func reading(atSecondsSince1970 seconds: Double) -> Reading {
        let local = Int(seconds.rounded(.down)) + offset(at: seconds)
        let (days, secondOfDay) = Self.floorDivision(local, by: 86_400)
        // 1970-01-01, day 0, was a Thursday: index 3.
        let weekday = Self.floorDivision(days + 3, by: 7).remainder
        return Reading(weekdayIndex: weekday, minuteOfDay: secondOfDay / 60)
    }

    /// The offset in force at `seconds`: that of the last start at or before it.
    private func offset(at seconds: Double) -> Int {
        var low = 0
        var high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= seconds { low = middle } else { high = middle }
        }
        return offsets[low]
    }

    /// Quotient rounded toward negative infinity, and the matching non-negative remainder.
    private static func floorDivision(_ value: Int, by divisor: Int) -> (quotient: Int, remainder: Int) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
