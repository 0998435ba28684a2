import Foundation
import GatehouseCore
import GatehousePolicies
import Testing

/// Local times that do not exist are never inside; repeated local times are inside both times.
/// Each test counts the minutes a window allows over the night of a transition.
@Suite("TimeWindow around daylight saving time")
struct TimeWindowDaylightSavingTests {
    typealias T = TimeWindowTesting

    // Europe/Berlin, Sunday 2026-03-29 01:00Z: 02:00 CET becomes 03:00 CEST.
    @Test func berlinSkippedHourIsNeverInside() async throws {
        let clock = T.Clock()
        let policy = try T.window([.sun], "02:00", "03:00", in: "Europe/Berlin", clock: clock)
        #expect(
            try await T.allowedMinutes(
                policy, clock, from: "2026-03-28T22:00:00Z", to: "2026-03-29T04:00:00Z")
                == 0)
        #expect(
            try await T.decide(policy, clock, at: T.instant("2026-03-29T01:00:00Z"))
                == .deny(reason: "outside Sun 02:00–03:00 Europe/Berlin; it is Sun 03:00 there"))
        // The next Sunday, 02:30 exists again.
        #expect(try await T.decide(policy, clock, at: T.instant("2026-04-05T02:30:00+02:00")).isAllowed)
    }

    @Test func berlinWindowAroundTheSkippedHourIsOneHourShorter() async throws {
        let clock = T.Clock()
        let policy = try T.window([.sun], "01:00", "04:00", in: "Europe/Berlin", clock: clock)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-03-29T00:59:00Z")).isAllowed)  // 01:59
        #expect(try await T.decide(policy, clock, at: T.instant("2026-03-29T01:00:00Z")).isAllowed)  // 03:00
        #expect(
            try await T.allowedMinutes(
                policy, clock, from: "2026-03-28T22:00:00Z", to: "2026-03-29T04:00:00Z")
                == 2 * 60)
    }

    // Europe/Berlin, Sunday 2026-10-25 01:00Z: 03:00 CEST becomes 02:00 CET.
    @Test func berlinRepeatedHourIsInsideBothTimes() async throws {
        let clock = T.Clock()
        let policy = try T.window([.sun], "02:00", "03:00", in: "Europe/Berlin", clock: clock)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-10-25T02:30:00+02:00")).isAllowed)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-10-25T02:30:00+01:00")).isAllowed)
        #expect(
            try await T.allowedMinutes(
                policy, clock, from: "2026-10-24T22:00:00Z", to: "2026-10-25T04:00:00Z")
                == 2 * 60)
        #expect(
            try await T.decide(policy, clock, at: T.instant("2026-10-25T02:00:00Z"))
                == .deny(reason: "outside Sun 02:00–03:00 Europe/Berlin; it is Sun 03:00 there"))
    }

    @Test func berlinWindowPastMidnightFollowsTheWallClockOnBothTransitions() async throws {
        let clock = T.Clock()
        let policy = try T.window([.sat], "22:00", "06:00", in: "Europe/Berlin", clock: clock)
        // Eight wall-clock hours: seven real hours in March, nine in October.
        #expect(
            try await T.allowedMinutes(
                policy, clock, from: "2026-03-28T12:00:00Z", to: "2026-03-29T12:00:00Z")
                == 7 * 60)
        #expect(
            try await T.allowedMinutes(
                policy, clock, from: "2026-10-24T12:00:00Z", to: "2026-10-25T12:00:00Z")
                == 9 * 60)
    }

    // America/New_York, Sunday 2026-03-08 07:00Z: 02:00 EST becomes 03:00 EDT.
    @Test func newYorkSkippedHourIsNeverInside() async throws {
        let clock = T.Clock()
        let skipped = try T.window([.sun], "02:00", "03:00", in: "America/New_York", clock: clock)
        #expect(
            try await T.allowedMinutes(
                skipped, clock, from: "2026-03-08T04:00:00Z", to: "2026-03-08T10:00:00Z")
                == 0)
        let around = try T.window([.sun], "01:30", "03:30", in: "America/New_York", clock: clock)
        #expect(
            try await T.allowedMinutes(
                around, clock, from: "2026-03-08T04:00:00Z", to: "2026-03-08T10:00:00Z")
                == 60)
        #expect(
            try await T.decide(around, clock, at: T.instant("2026-03-08T06:59:00Z"))
                == .allow)
        #expect(
            try await T.decide(skipped, clock, at: T.instant("2026-03-08T06:59:00Z"))
                == .deny(reason: "outside Sun 02:00–03:00 America/New_York; it is Sun 01:59 there"))
    }

    // America/New_York, Sunday 2026-11-01 06:00Z: 02:00 EDT becomes 01:00 EST.
    @Test func newYorkRepeatedHourIsInsideBothTimes() async throws {
        let clock = T.Clock()
        let policy = try T.window([.sun], "01:00", "02:00", in: "America/New_York", clock: clock)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-11-01T01:30:00-04:00")).isAllowed)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-11-01T01:30:00-05:00")).isAllowed)
        #expect(
            try await T.allowedMinutes(
                policy, clock, from: "2026-11-01T03:00:00Z", to: "2026-11-01T09:00:00Z")
                == 2 * 60)
    }

    // Australia/Lord_Howe, Sunday 2026-04-05 (2026-04-04 15:00Z): 02:00 (+11) becomes 01:30 (+10:30).
    @Test func lordHoweRepeatedHalfHourIsInsideBothTimes() async throws {
        let clock = T.Clock()
        let policy = try T.window([.sun], "01:30", "02:00", in: "Australia/Lord_Howe", clock: clock)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-04-05T01:45:00+11:00")).isAllowed)
        #expect(try await T.decide(policy, clock, at: T.instant("2026-04-05T01:45:00+10:30")).isAllowed)
        #expect(
            try await T.allowedMinutes(
                policy, clock, from: "2026-04-04T12:00:00Z", to: "2026-04-04T18:00:00Z")
                == 60)
    }

    // Australia/Lord_Howe, Sunday 2026-10-04 (2026-10-03 15:30Z): 02:00 (+10:30) becomes 02:30 (+11).
    @Test func lordHoweSkippedHalfHourIsNeverInside() async throws {
        let clock = T.Clock()
        let skipped = try T.window([.sun], "02:00", "02:30", in: "Australia/Lord_Howe", clock: clock)
        #expect(
            try await T.allowedMinutes(
                skipped, clock, from: "2026-10-03T12:00:00Z", to: "2026-10-03T18:00:00Z")
                == 0)
        #expect(
            try await T.decide(skipped, clock, at: T.instant("2026-10-03T15:30:00Z"))
                == .deny(reason: "outside Sun 02:00–02:30 Australia/Lord_Howe; it is Sun 02:30 there"))
        let around = try T.window([.sun], "01:45", "02:45", in: "Australia/Lord_Howe", clock: clock)
        #expect(
            try await T.allowedMinutes(
                around, clock, from: "2026-10-03T12:00:00Z", to: "2026-10-03T18:00:00Z")
                == 30)
    }
}
