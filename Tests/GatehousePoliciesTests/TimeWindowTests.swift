import Foundation
import GatehouseCore
import GatehousePolicies
import Testing

@Suite("TimeWindow")
struct TimeWindowTests {
    typealias T = TimeWindowTesting
    let weekdays: Set<Weekday> = [.mon, .tue, .wed, .thu, .fri]

    // 2026-01-14 is a Wednesday; Berlin is at +01:00 in January.
    @Test(arguments: [
        ("2026-01-14T08:59:59+01:00", false),
        ("2026-01-14T09:00:00+01:00", true),
        ("2026-01-14T12:00:00+01:00", true),
        ("2026-01-14T16:59:00+01:00", true),
        ("2026-01-14T16:59:59.999+01:00", true),
        ("2026-01-14T17:00:00+01:00", false),
        ("2026-01-17T10:00:00+01:00", false),  // Saturday
        ("2026-01-18T12:00:00+01:00", false),  // Sunday
        ("2026-01-19T09:00:00+01:00", true),  // Monday
    ])
    func sameDayWindowIncludesFromAndExcludesTo(instant: String, allowed: Bool) async throws {
        let clock = T.Clock()
        let policy = try T.window(weekdays, "09:00", "17:00", in: "Europe/Berlin", clock: clock)
        #expect(try await T.decide(policy, clock, at: T.instant(instant)).isAllowed == allowed)
    }

    @Test func denialNamesTheWindowAndTheLocalTimeThere() async throws {
        let clock = T.Clock()
        let policy = try T.window(weekdays, "09:00", "17:00", in: "Europe/Berlin", clock: clock)
        let decision = try await T.decide(policy, clock, at: T.instant("2026-01-17T09:12:00Z"))
        #expect(decision == .deny(reason: "outside Mon–Fri 09:00–17:00 Europe/Berlin; it is Sat 10:12 there"))
    }

    // 2026-01-16 is a Friday.
    @Test(arguments: [
        ("2026-01-16T21:59:00+01:00", false),
        ("2026-01-16T22:00:00+01:00", true),
        ("2026-01-16T23:59:59+01:00", true),
        ("2026-01-17T00:00:00+01:00", true),
        ("2026-01-17T01:00:00+01:00", true),
        ("2026-01-17T05:59:00+01:00", true),
        ("2026-01-17T06:00:00+01:00", false),
        ("2026-01-16T01:00:00+01:00", false),  // Friday early morning belongs to Thursday's window
        ("2026-01-17T22:00:00+01:00", false),  // Saturday evening: Saturday is not listed
        ("2026-01-18T01:00:00+01:00", false),
    ])
    func windowPastMidnightBelongsToTheDayItStarts(instant: String, allowed: Bool) async throws {
        let clock = T.Clock()
        let policy = try T.window([.fri], "22:00", "06:00", in: "Europe/Berlin", clock: clock)
        #expect(try await T.decide(policy, clock, at: T.instant(instant)).isAllowed == allowed)
    }

    @Test func windowPastMidnightNamesItsStartDayInTheReason() async throws {
        let clock = T.Clock()
        let policy = try T.window([.fri], "22:00", "06:00", in: "Europe/Berlin", clock: clock)
        let decision = try await T.decide(policy, clock, at: T.instant("2026-01-16T01:00:00+01:00"))
        #expect(decision == .deny(reason: "outside Fri 22:00–06:00 Europe/Berlin; it is Fri 01:00 there"))
    }

    // 2026-01-18 is a Sunday, 2026-01-19 a Monday.
    @Test(arguments: [
        ([Weekday.sun], "2026-01-19T01:00:00+01:00", true),
        ([Weekday.sun], "2026-01-18T22:30:00+01:00", true),
        ([Weekday.sun], "2026-01-19T06:00:00+01:00", false),
        ([Weekday.sun], "2026-01-19T23:00:00+01:00", false),
        ([Weekday.mon], "2026-01-19T01:00:00+01:00", false),
        ([Weekday.mon], "2026-01-19T23:00:00+01:00", true),
        ([Weekday.mon], "2026-01-20T01:00:00+01:00", true),
        ([Weekday.sat], "2026-01-19T01:00:00+01:00", false),
        ([Weekday.sat], "2026-01-18T01:00:00+01:00", true),
    ])
    func windowPastMidnightCrossesTheWeekEnd(days: [Weekday], instant: String, allowed: Bool) async throws {
        let clock = T.Clock()
        let policy = try T.window(Set(days), "22:00", "06:00", in: "Europe/Berlin", clock: clock)
        #expect(try await T.decide(policy, clock, at: T.instant(instant)).isAllowed == allowed)
    }

    @Test func zoneWithoutDaylightSavingTimeUsesItsFixedOffset() async throws {
        let clock = T.Clock()
        let tokyo = try T.window(weekdays, "09:00", "17:00", in: "Asia/Tokyo", clock: clock)
        #expect(try await T.decide(tokyo, clock, at: T.instant("2026-03-09T00:00:00Z")).isAllowed)
        #expect(try await !T.decide(tokyo, clock, at: T.instant("2026-03-08T23:59:00Z")).isAllowed)
        #expect(
            try await T.decide(tokyo, clock, at: T.instant("2026-07-11T03:04:00Z"))
                == .deny(reason: "outside Mon–Fri 09:00–17:00 Asia/Tokyo; it is Sat 12:04 there"))
        #expect(
            try await T.allowedMinutes(tokyo, clock, from: "2026-03-09T00:00:00Z", to: "2026-03-10T00:00:00Z")
                == 8 * 60)
    }

    @Test func reasonKeepsTheZoneIdentifierAsGiven() async throws {
        let clock = T.Clock()
        let utc = try T.window([.mon], "09:00", "17:00", in: "UTC", clock: clock)
        #expect(
            try await T.decide(utc, clock, at: T.instant("2026-01-17T10:12:00Z"))
                == .deny(reason: "outside Mon 09:00–17:00 UTC; it is Sat 10:12 there"))
        #expect(utc.description == "Mon 09:00–17:00 UTC")
    }

    @Test func instantsBefore1970UseFloorArithmetic() async throws {
        let clock = T.Clock()
        let policy = try T.window([.mon], "09:00", "10:00", in: "Europe/Berlin", clock: clock)
        #expect(
            try await T.decide(policy, clock, at: T.instant("1969-12-31T22:00:00Z"))
                == .deny(reason: "outside Mon 09:00–10:00 Europe/Berlin; it is Wed 23:00 there"))
        #expect(
            try await T.decide(policy, clock, at: T.instant("1969-12-31T22:59:59.5Z"))
                == .deny(reason: "outside Mon 09:00–10:00 Europe/Berlin; it is Wed 23:59 there"))
    }

    @Test func exposesItsSettings() throws {
        let policy = try TimeWindow(
            days: weekdays, from: LocalTime("09:00"), to: LocalTime("17:00"), timeZone: "Europe/Berlin")
        #expect(policy.name == "timeWindow")
        #expect(policy.days == weekdays)
        #expect(policy.from == (try LocalTime(hour: 9, minute: 0)))
        #expect(policy.to == (try LocalTime(hour: 17, minute: 0)))
        #expect(policy.timeZone.identifier == "Europe/Berlin")
        #expect(policy.description == "Mon–Fri 09:00–17:00 Europe/Berlin")
        let named = try TimeWindow(
            days: [.sat], from: LocalTime("22:00"), to: LocalTime("02:00"), timeZone: "Asia/Tokyo",
            name: "lateNight")
        #expect(named.name == "lateNight")
    }

    @Test func equalFromAndToIsAnError() throws {
        let error = #expect(throws: PolicyConfigurationError.self) {
            try TimeWindow(days: [.mon], from: LocalTime("09:00"), to: LocalTime("09:00"), timeZone: "UTC")
        }
        #expect(
            error?.errorDescription
                == "timeWindow: from and to are both 09:00; expected from before to, or from after to "
                + "for a window past midnight")
    }

    @Test func emptyDaysIsAnError() throws {
        let error = #expect(throws: PolicyConfigurationError.self) {
            try TimeWindow(days: [], from: LocalTime("09:00"), to: LocalTime("17:00"), timeZone: "UTC")
        }
        #expect(
            error?.errorDescription
                == "timeWindow: days is empty; expected at least one of mon, tue, wed, thu, fri, sat, sun")
    }

    @Test func offsetIsLookedUpAgainWhenTheClockPassesATransition() async throws {
        let clock = T.Clock()
        let policy = try T.window(Set(Weekday.allCases), "03:00", "04:00", in: "Europe/Berlin", clock: clock)
        // 2026-03-29 01:00Z: Berlin moves from 02:00 CET to 03:00 CEST.
        #expect(
            try await T.decide(policy, clock, at: T.instant("2026-03-29T00:30:00Z"))
                == .deny(reason: "outside Mon–Sun 03:00–04:00 Europe/Berlin; it is Sun 01:30 there"))
        #expect(try await T.decide(policy, clock, at: T.instant("2026-03-29T00:59:59Z")).isAllowed == false)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-03-29T01:00:00Z")).isAllowed)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-03-29T01:59:00Z")).isAllowed)
        #expect(
            try await T.decide(policy, clock, at: T.instant("2026-03-29T02:00:00Z"))
                == .deny(reason: "outside Mon–Sun 03:00–04:00 Europe/Berlin; it is Sun 04:00 there"))
    }

    @Test func offsetIsLookedUpAgainWhenTheClockGoesBack() async throws {
        let clock = T.Clock()
        let policy = try T.window(Set(Weekday.allCases), "03:00", "04:00", in: "Europe/Berlin", clock: clock)
        // Summer offset cached first...
        #expect(try await T.decide(policy, clock, at: T.instant("2026-03-29T01:30:00Z")).isAllowed)
        // ...then the clock goes back across the transition: winter offset again.
        #expect(
            try await T.decide(policy, clock, at: T.instant("2026-03-29T00:59:00Z"))
                == .deny(reason: "outside Mon–Sun 03:00–04:00 Europe/Berlin; it is Sun 01:59 there"))
        #expect(try await T.decide(policy, clock, at: T.instant("2026-03-28T02:30:00Z")).isAllowed)
        // Forward again, past the next transition (back to winter time in October): a stale
        // summer offset would read 03:30 and allow.
        #expect(
            try await T.decide(policy, clock, at: T.instant("2026-11-02T01:30:00Z"))
                == .deny(reason: "outside Mon–Sun 03:00–04:00 Europe/Berlin; it is Mon 02:30 there"))
        #expect(try await T.decide(policy, clock, at: T.instant("2026-11-02T02:30:00Z")).isAllowed)
    }
}
