import Foundation
import GatehouseCore

/// A gatekeeper that allows requests only during a weekly window of local wall-clock time in
/// one time zone, such as Monday to Friday, 09:00 to 17:00 in Europe/Berlin.
///
/// `from` is inclusive and `to` exclusive; a window past midnight belongs to the day it starts.
/// A clock the window cannot place is a fault, not a denial: the decision throws
/// ``TimeWindowError``, so `Not` cannot turn it into an allow. Semantics, daylight saving time
/// and accepted zones: see docs/policies.md.
public struct TimeWindow: AccessPolicy, CustomStringConvertible {
    /// The name shown in denials and audit records, `"timeWindow"` unless given.
    public let name: String
    /// The days on which the window opens.
    public let days: Set<Weekday>
    /// The local time the window opens (inclusive).
    public let from: LocalTime
    /// The local time the window closes (exclusive); earlier than `from` when the window runs
    /// past midnight into the next day.
    public let to: LocalTime
    /// The zone whose wall clock the window follows.
    public let timeZone: TimeZone

    /// The instants a window decides at, 1900-01-01T00:00:00Z up to 2200-01-01T00:00:00Z (before,
    /// zones kept local mean time; after, zone data is a guess); outside, decisions throw.
    public static let supportedInstants =
        Date(timeIntervalSince1970: earliestSecond)..<Date(timeIntervalSince1970: endSecond)
    /// 1900-01-01T00:00:00Z and 2200-01-01T00:00:00Z in seconds since 1970.
    private static let earliestSecond: Double = -2_208_988_800
    private static let endSecond: Double = 7_258_118_400
    /// 1899-12-25T00:00:00Z, a Monday: local seconds from it are never negative, so days divide.
    private static let firstMonday = -2_209_593_600

    /// `Mon–Fri 09:00–17:00 Europe/Berlin`, the identifier as given (Foundation reports UTC as GMT).
    private let summary: String
    private let now: @Sendable () -> Date
    /// By day, from Monday (0).
    private let isOpen: [Bool]
    /// The instants (seconds since 1970) from which each offset (seconds) holds, ascending.
    private let offsetStarts: [Double]
    private let offsets: [Int]

    /// Creates the window in the zone with the IANA identifier `timeZone`, such as
    /// `"Europe/Berlin"` or `"Etc/GMT-5"`, on the clock `now`.
    ///
    /// - Throws: ``PolicyConfigurationError`` (policy `"timeWindow"`) for a zone that is not an IANA
    ///   identifier, `from` equal to `to`, or no days.
    public init(
        days: Set<Weekday>,
        from: LocalTime,
        to: LocalTime,
        timeZone: String,
        name: String = "timeWindow",
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(PolicyConfigurationError) {
        guard let zone = TimeWindowZone.zone(timeZone) else {
            throw PolicyConfigurationError(
                policy: "timeWindow", message: TimeWindowZone.problem(with: timeZone))
        }
        guard from != to else {
            throw PolicyConfigurationError(
                policy: "timeWindow",
                message: "from and to are both \(from); expected from before to, or from after to "
                    + "for a window past midnight")
        }
        guard !days.isEmpty else {
            throw PolicyConfigurationError(
                policy: "timeWindow",
                message: "days is empty; expected at least one of mon, tue, wed, thu, fri, sat, sun")
        }
        self.name = name
        self.days = days
        self.from = from
        self.to = to
        self.timeZone = zone
        self.now = now
        summary = "\(Weekday.summary(of: days)) \(from)–\(to) \(timeZone)"
        isOpen = Weekday.allCases.map(days.contains)
        // Every offset change from 1900 to 2200, read once so that a decision needs no Calendar.
        var instant = Date(timeIntervalSince1970: Self.earliestSecond)
        var offsetStarts = [Self.earliestSecond]
        var offsets = [zone.secondsFromGMT(for: instant)]
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next > instant,
            next.timeIntervalSince1970 < Self.endSecond
        {
            offsetStarts.append(next.timeIntervalSince1970)
            offsets.append(zone.secondsFromGMT(for: next))
            instant = next
        }
        self.offsetStarts = offsetStarts
        self.offsets = offsets
    }

    /// The window, such as `Mon–Fri 09:00–17:00 Europe/Berlin`.
    public var description: String { summary }

    /// Allows when the clock's instant falls inside the window on the zone's wall clock.
    ///
    /// - Throws: ``TimeWindowError`` when the clock reads an instant that is not finite or lies
    ///   outside ``supportedInstants``.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try decision(at: now())
    }

    /// ``evaluate(_:)``'s decision, with no rule; throws as ``evaluate(_:)`` does.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(try decision(at: now()))
    }

    /// Exact: everything or nothing, by the window at the request's instant (or the window's
    /// clock).
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .exact(allowing: try decision(at: request.instant ?? now()) == .allow ? .everything : .nothing)
    }

    func decision(at instant: Date) throws -> AccessDecision {
        let seconds = instant.timeIntervalSince1970
        // NaN fails both comparisons.
        guard seconds >= Self.earliestSecond && seconds < Self.endSecond else {
            throw Self.fault(seconds)
        }
        let local = Int(seconds.rounded(.down)) + offset(at: seconds) - Self.firstMonday
        let weekday = local / 86_400 % 7
        let minute = local % 86_400 / 60
        if contains(weekday: weekday, minute: minute) {
            return .allow
        }
        let day = Weekday.allCases[weekday].shortName
        return .deny(reason: "outside \(summary); it is \(day) \(LocalTime.clock(minute)) there")
    }

    /// The offset of the last change at or before `seconds`.
    private func offset(at seconds: Double) -> Int {
        var low = 0
        var high = offsetStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if offsetStarts[middle] <= seconds { low = middle } else { high = middle }
        }
        return offsets[low]
    }

    private func contains(weekday: Int, minute: Int) -> Bool {
        let (opens, closes) = (from.minutesSinceMidnight, to.minutesSinceMidnight)
        if opens < closes {
            return isOpen[weekday] && minute >= opens && minute < closes
        }
        // Past midnight: the evening belongs to today, the early morning to yesterday.
        if minute >= opens {
            return isOpen[weekday]
        }
        return minute < closes && isOpen[(weekday + 6) % 7]
    }

    private static func fault(_ seconds: Double) -> TimeWindowError {
        guard seconds.isFinite else {
            return TimeWindowError(
                kind: .clockNotFinite, message: "the clock reads \(seconds); expected a finite instant")
        }
        return TimeWindowError(
            kind: .clockOutOfRange,
            message: "the clock reads \(seconds) s since 1970, outside the range TimeWindow trusts the zone "
                + "data for (1900-01-01T00:00:00Z up to 2200-01-01T00:00:00Z); expected an instant in that range"
        )
    }
}
