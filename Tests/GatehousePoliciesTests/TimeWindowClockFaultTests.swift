import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// A clock a time window cannot place on a wall clock is a fault, not a decision: the policy
/// throws, so `Not` cannot turn it into an allow.
@Suite("TimeWindow clock faults")
struct TimeWindowClockFaultTests {
    typealias T = TimeWindowTesting

    static let outOfRange =
        "outside the range TimeWindow trusts the zone data for "
        + "(1900-01-01T00:00:00Z up to 2200-01-01T00:00:00Z); expected an instant in that range"

    static let faults: [(seconds: Double, message: String)] = [
        (.nan, "the clock reads nan; expected a finite instant"),
        (.infinity, "the clock reads inf; expected a finite instant"),
        (-.infinity, "the clock reads -inf; expected a finite instant"),
        (2e12, "the clock reads 2000000000000.0 s since 1970, " + outOfRange),
        (-2e12, "the clock reads -2000000000000.0 s since 1970, " + outOfRange),
    ]

    @Test(arguments: faults)
    func notOfTimeWindowThrowsWhenTheClockCannotBePlaced(seconds: Double, message: String) async throws {
        let policy = try TimeWindow(
            days: [.mon], from: LocalTime("09:00"), to: LocalTime("17:00"), timeZone: "Europe/Berlin",
            now: { Date(timeIntervalSince1970: seconds) })
        let inverted = Not(policy)
        let error = await #expect(throws: TimeWindowError.self) {
            try await inverted.evaluate(AccessRequest(resource: "r"))
        }
        #expect(error?.message == message)
        #expect(error?.errorDescription == message)
    }

    @Test(arguments: faults)
    func timeWindowThrowsRatherThanDeniesWhenTheClockCannotBePlaced(
        seconds: Double, message: String
    ) async throws {
        let policy = try TimeWindow(
            days: Set(Weekday.allCases), from: LocalTime("00:00"), to: LocalTime("23:59"),
            timeZone: "UTC", now: { Date(timeIntervalSince1970: seconds) })
        let error = await #expect(throws: TimeWindowError.self) {
            try await policy.evaluate(AccessRequest(resource: "r"))
        }
        #expect(error?.kind == (seconds.isFinite ? .clockOutOfRange : .clockNotFinite))
        #expect(error?.message == message)
    }

    @Test(arguments: faults)
    func proxyGuardedByNotOfTimeWindowFailsClosedWhenTheClockCannotBePlaced(
        seconds: Double, message: String
    ) async throws {
        let policy = try TimeWindow(
            days: [.mon], from: LocalTime("09:00"), to: LocalTime("17:00"), timeZone: "Europe/Berlin",
            now: { Date(timeIntervalSince1970: seconds) })
        let loader = SpyLoader()
        let proxy = AccessProxy(loader, gatekeepers: [Not(policy)])
        let denied = await #expect(throws: AccessDenied.self) {
            try await proxy.load("report")
        }
        #expect(denied?.isFailure == true)
        #expect(denied?.gatekeeper == "not(timeWindow)")
        #expect((denied?.underlyingError as? TimeWindowError)?.message == message)
        #expect(loader.calls == 0)
    }

    @Test func supportedInstantsRunFrom1900UpTo2200() {
        #expect(TimeWindow.supportedInstants.lowerBound == T.instant("1900-01-01T00:00:00Z"))
        #expect(TimeWindow.supportedInstants.upperBound == T.instant("2200-01-01T00:00:00Z"))
    }

    @Test func firstSupportedInstantDecidesAndTheSecondBeforeItThrows() async throws {
        let clock = T.Clock()
        let policy = try T.window([.mon], "00:00", "01:00", in: "UTC", clock: clock)
        // 1900-01-01 was a Monday.
        #expect(try await T.decide(policy, clock, at: T.instant("1900-01-01T00:00:00Z")).isAllowed)
        let error = await #expect(throws: TimeWindowError.self) {
            try await T.decide(policy, clock, at: T.instant("1899-12-31T23:59:59Z"))
        }
        #expect(error?.message == "the clock reads -2208988801.0 s since 1970, " + Self.outOfRange)
    }

    @Test func lastSupportedInstantDecidesAndTheEndThrows() async throws {
        let clock = T.Clock()
        let policy = try T.window([.tue], "23:00", "23:59", in: "UTC", clock: clock)
        // 2199-12-31 is a Tuesday.
        #expect(
            try await T.decide(policy, clock, at: T.instant("2199-12-31T23:59:59.999Z"))
                == .deny(reason: "outside Tue 23:00–23:59 UTC; it is Tue 23:59 there"))
        #expect(try await T.decide(policy, clock, at: T.instant("2199-12-31T23:58:00Z")).isAllowed)
        let error = await #expect(throws: TimeWindowError.self) {
            try await T.decide(policy, clock, at: T.instant("2200-01-01T00:00:00Z"))
        }
        #expect(error?.message == "the clock reads 7258118400.0 s since 1970, " + Self.outOfRange)
    }

    /// The range is one Foundation answers for in every zone: an offset within a day, and the
    /// policy's own reading agrees with `Calendar` at both ends.
    @Test func everyKnownZoneDecidesAtBothEndsOfTheSupportedRange() async throws {
        let ends = [
            TimeWindow.supportedInstants.lowerBound,
            TimeWindow.supportedInstants.upperBound - 0.5,
        ]
        for identifier in TimeZone.knownTimeZoneIdentifiers where identifier != "Factory" {
            let zone = try #require(TimeZone(identifier: identifier))
            let clock = T.Clock()
            let policy = try T.window(Set(Weekday.allCases), "00:00", "23:59", in: identifier, clock: clock)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for end in ends {
                #expect(abs(zone.secondsFromGMT(for: end)) < 86_400, "\(identifier) at \(end)")
                let parts = calendar.dateComponents([.hour, .minute], from: end)
                let lastMinute = parts.hour == 23 && parts.minute == 59
                #expect(
                    try await T.decide(policy, clock, at: end).isAllowed == !lastMinute,
                    "\(identifier) at \(end)")
            }
        }
    }
}
