import Foundation
import GatehouseCore

/// A gatekeeper that allows requests only during a weekly window of local wall-clock time in
/// one time zone, such as Monday to Friday, 09:00 to 17:00 in Europe/Berlin.
///
/// - `from` is inclusive and `to` exclusive, to the minute: 09:00–17:00 allows 09:00 and 16:59,
///   not 17:00.
/// - `from` before `to` is a window within each listed day. `from` after `to` runs past midnight
///   and belongs to the day it starts: Fri 22:00–06:00 allows Sat 01:00, and with only Friday
///   listed it does not allow Fri 01:00.
/// - Daylight saving time: the local time is what the zone's wall clock shows at the instant. A
///   local time skipped when clocks go forward never occurs, so it is never inside; a local hour
///   repeated when clocks go back is inside both times.
///
/// A denial names the window and the local time, such as
/// `outside Mon–Fri 09:00–17:00 Europe/Berlin; it is Sat 10:12 there`. A clock that reads an
/// instant the window cannot place (not finite, or outside ``supportedInstants``) is a fault,
/// not a denial: the decision throws ``TimeWindowError``, so `Not` cannot turn it into an allow.
/// A decision does not use `Calendar` and takes no lock: the zone's offsets from 1900 to 2200
/// are read once, when the policy is made, into an immutable table.
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

    /// The instants a window decides at: from 1900-01-01T00:00:00Z up to (not including)
    /// 2200-01-01T00:00:00Z. Before 1900 most zones kept local mean time, which the zone data
    /// records but no clock showed; after its last recorded transition the data repeats the
    /// current rule, and 2200 bounds how far that guess is trusted. A clock outside this range,
    /// or one that is not finite, makes every decision throw ``TimeWindowError``.
    public static let supportedInstants =
        Date(timeIntervalSince1970: Window.earliestSecond)..<Date(timeIntervalSince1970: Window.endSecond)

    /// `Mon–Fri 09:00–17:00 Europe/Berlin`.
    private let summary: String
    /// What a decision reads, in one object: the policy's witness then passes one reference
    /// instead of copying the whole struct around the call to the clock.
    private let window: Window

    /// Creates the window.
    ///
    /// - Parameters:
    ///   - days: The days on which the window opens; at least one.
    ///   - from: The local time it opens (inclusive).
    ///   - to: The local time it closes (exclusive); before `from` for a window past midnight.
    ///   - timeZone: An IANA identifier, such as `"Europe/Berlin"`, `"UTC"` or `"Etc/GMT-5"`
    ///     (+05:00): one in `TimeZone.knownTimeZoneIdentifiers`, `UTC`, `GMT`, or one in an IANA
    ///     area (`Europe/`, `Asia/`, `Etc/`, …) that Foundation's zone data holds under that
    ///     name. Never `Factory`, an offset such as `GMT+5`, or an abbreviation such as `BST`.
    ///   - name: The name shown in denials and audit records.
    ///   - now: The clock; the system clock unless given.
    /// - Throws: ``PolicyConfigurationError`` (policy `"timeWindow"`) for a time zone that is not
    ///   an IANA identifier (the message suggests the nearest one), `from` equal to `to`, or no
    ///   days.
    public init(
        days: Set<Weekday>,
        from: LocalTime,
        to: LocalTime,
        timeZone: String,
        name: String = "timeWindow",
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
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
        // The identifier as given: Foundation reports "UTC" as "GMT".
        let summary = "\(Weekday.summary(of: days)) \(from)–\(to) \(timeZone)"
        self.summary = summary
        window = Window(
            now: now,
            converter: LocalTimeConverter(timeZone: zone, from: Window.earliestSecond, to: Window.endSecond),
            dayMask: days.reduce(0) { $0 | (1 << UInt8($1.isoIndex)) },
            fromMinute: from.minutesSinceMidnight, toMinute: to.minutesSinceMidnight,
            reasonPrefix: "outside \(summary); it is ")
    }

    /// The window, such as `Mon–Fri 09:00–17:00 Europe/Berlin`.
    public var description: String { summary }

    /// Allows when the clock's instant falls inside the window on the zone's wall clock.
    ///
    /// - Throws: ``TimeWindowError`` when the clock reads an instant that is not finite or lies
    ///   outside ``supportedInstants``.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try window.decisionNow()
    }

    /// ``evaluate(_:)``'s decision, with no rule.
    ///
    /// - Throws: ``TimeWindowError``, as ``evaluate(_:)`` does.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(try window.decisionNow())
    }

    /// The decision at `instant`.
    func decision(at instant: Date) throws -> AccessDecision {
        try window.decision(at: instant)
    }
}

/// The part of a ``TimeWindow`` a decision reads; never changed after `init`.
private final class Window: Sendable {
    /// 1900-01-01T00:00:00Z in seconds since 1970.
    static let earliestSecond: Double = -2_208_988_800
    /// 2200-01-01T00:00:00Z in seconds since 1970.
    static let endSecond: Double = 7_258_118_400

    let now: @Sendable () -> Date
    let converter: LocalTimeConverter
    /// Bit `i` set when the day with ISO index `i` (0 = Monday) is in the window's days.
    let dayMask: UInt8
    let fromMinute: Int
    let toMinute: Int
    /// `outside Mon–Fri 09:00–17:00 Europe/Berlin; it is `, as UTF-8, to build a reason in one
    /// allocation.
    let reasonPrefix: String

    init(
        now: @escaping @Sendable () -> Date, converter: LocalTimeConverter, dayMask: UInt8,
        fromMinute: Int, toMinute: Int, reasonPrefix: String
    ) {
        self.now = now
        self.converter = converter
        self.dayMask = dayMask
        self.fromMinute = fromMinute
        self.toMinute = toMinute
        self.reasonPrefix = reasonPrefix
    }

    func decisionNow() throws -> AccessDecision {
        try decision(at: now())
    }

    func decision(at instant: Date) throws -> AccessDecision {
        let seconds = instant.timeIntervalSince1970
        // NaN fails both comparisons.
        guard seconds >= Self.earliestSecond && seconds < Self.endSecond else {
            throw Self.fault(seconds)
        }
        let reading = converter.reading(atSecondsSince1970: seconds)
        if contains(reading) {
            return .allow
        }
        return .deny(reason: reason(for: reading))
    }

    /// Why the clock's reading cannot be decided at.
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

    /// `outside Mon–Fri 09:00–17:00 Europe/Berlin; it is Sat 10:12 there`.
    private func reason(for reading: LocalTimeConverter.Reading) -> String {
        let day = Weekday(isoIndex: reading.weekdayIndex).shortName
        let hour = reading.minuteOfDay / 60
        let minute = reading.minuteOfDay % 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(reasonPrefix)\(day) \(twoDigits(hour)):\(twoDigits(minute)) there"
    }

    private func contains(_ reading: LocalTimeConverter.Reading) -> Bool {
        let minute = reading.minuteOfDay
        let today = isListed(reading.weekdayIndex)
        if fromMinute < toMinute {
            return today && minute >= fromMinute && minute < toMinute
        }
        // Past midnight: the evening belongs to today, the early morning to yesterday.
        if minute >= fromMinute {
            return today
        }
        return minute < toMinute && isListed((reading.weekdayIndex + 6) % 7)
    }

    private func isListed(_ weekdayIndex: Int) -> Bool {
        dayMask & (1 << UInt8(weekdayIndex)) != 0
    }
}
