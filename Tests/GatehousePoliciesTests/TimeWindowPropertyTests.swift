import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// The policy's own offset arithmetic agrees with `Calendar` on random instants.
@Suite("TimeWindow against a Calendar reference")
struct TimeWindowPropertyTests {
    typealias T = TimeWindowTesting

    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "UTC",
        "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "America/Sao_Paulo", "Europe/Dublin",
    ]

    /// What the zone's wall clock shows, by `Calendar`: weekday (0 = Monday) and minute of day.
    static func reference(_ instant: Date, in calendar: Calendar) -> (weekday: Int, minute: Int) {
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: instant)
        // Calendar counts Sunday as 1.
        let weekday = ((parts.weekday ?? 1) + 5) % 7
        return (weekday, (parts.hour ?? 0) * 60 + (parts.minute ?? 0))
    }

    /// Whether the window contains the reading, from the documented rule.
    static func contains(_ policy: TimeWindow, weekday: Int, minute: Int) -> Bool {
        let listed = Set(policy.days.map { Weekday.allCases.firstIndex(of: $0) ?? -1 })
        let from = policy.from.minutesSinceMidnight
        let to = policy.to.minutesSinceMidnight
        if from < to {
            return listed.contains(weekday) && from <= minute && minute < to
        }
        return (listed.contains(weekday) && minute >= from)
            || (listed.contains((weekday + 6) % 7) && minute < to)
    }

    /// Random instants in 2026–2027, and more within two hours of each transition in that span.
    static func instants(in zone: TimeZone, seed: UInt64) -> [Date] {
        var random = SplitMix64(seed: seed)
        let start = T.instant("2026-01-01T00:00:00Z").timeIntervalSince1970
        let end = T.instant("2028-01-01T00:00:00Z").timeIntervalSince1970
        var instants = (0..<1_500).map { _ in
            Date(timeIntervalSince1970: .random(in: start..<end, using: &random))
        }
        var transition = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: start))
        while let date = transition, date.timeIntervalSince1970 < end {
            instants += (0..<60).map { _ in date + .random(in: -7_200..<7_200, using: &random) }
            instants.append(date)
            instants.append(date - 0.001)
            transition = zone.nextDaylightSavingTimeTransition(after: date)
        }
        instants.shuffle(using: &random)
        return instants
    }

    @Test(arguments: zones)
    func localTimeAndDecisionsAgreeWithCalendar(zoneIdentifier: String) async throws {
        let zone = try #require(TimeZone(identifier: zoneIdentifier))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let clock = T.Clock()
        let policies = [
            try T.window([.mon], "00:00", "00:01", in: zoneIdentifier, clock: clock),
            try T.window([.mon, .tue, .wed, .thu, .fri], "09:00", "17:00", in: zoneIdentifier, clock: clock),
            try T.window([.fri, .sun], "22:17", "06:43", in: zoneIdentifier, clock: clock),
        ]
        let shuffled = Self.instants(in: zone, seed: UInt64(zoneIdentifier.utf8.count) &* 7_919)
        // Shuffled: the clock jumps back and forth; sorted: it moves forward like a real clock.
        for instant in shuffled + shuffled.sorted() {
            let expected = Self.reference(instant, in: calendar)
            let time = try LocalTime(hour: expected.minute / 60, minute: expected.minute % 60)
            let now = "it is \(Weekday.allCases[expected.weekday].shortName) \(time) there"
            for policy in policies {
                let decision = try await T.decide(policy, clock, at: instant)
                let inside = Self.contains(policy, weekday: expected.weekday, minute: expected.minute)
                let expectedDecision: AccessDecision =
                    inside ? .allow : .deny(reason: "outside \(policy); \(now)")
                // One failure is enough to report; stop rather than flood.
                guard decision == expectedDecision else {
                    Issue.record("\(policy) at \(instant): \(decision), expected \(expectedDecision)")
                    return
                }
            }
        }
    }
}
