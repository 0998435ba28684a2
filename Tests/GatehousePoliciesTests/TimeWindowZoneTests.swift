import Foundation
import GatehouseCore
import GatehousePolicies
import Testing

/// A time window's zone is an IANA identifier: never an offset spelled `GMT+5` (which
/// Foundation reads as +05:00 while `Etc/GMT+5` is −05:00), an abbreviation, or `Factory`.
@Suite("TimeWindow time zones")
struct TimeWindowZoneTests {
    typealias T = TimeWindowTesting

    static let expected = "expected an IANA identifier such as \"Europe/Berlin\""

    /// The `PolicyConfigurationError` message for `zone`.
    static func message(for zone: String) throws -> String? {
        let error = #expect(throws: PolicyConfigurationError.self) {
            try TimeWindow(days: [.mon], from: LocalTime("09:00"), to: LocalTime("17:00"), timeZone: zone)
        }
        #expect(error?.policy == "timeWindow")
        return error?.message
    }

    /// `unknown time zone "<zone>"; expected an IANA identifier such as "Europe/Berlin"<tail>`.
    static func unknown(_ zone: String, _ tail: String = "") -> String {
        "unknown time zone \(zone.debugDescription); \(expected)\(tail)"
    }

    /// `; a fixed offset of <offset> is written "<etc>" (Etc names invert the sign)`.
    static func written(_ offset: String, _ etc: String) -> String {
        "; a fixed offset of \(offset) is written \"\(etc)\" (Etc names invert the sign)"
    }

    @Test(arguments: [
        ("Europe/Berln", unknown("Europe/Berln", #" (did you mean "Europe/Berlin"?)"#)),
        ("europe/berlin", unknown("europe/berlin", #" (did you mean "Europe/Berlin"?)"#)),
        ("Europe/Berlin ", unknown("Europe/Berlin ", #" (did you mean "Europe/Berlin"?)"#)),
        ("Europe/Berlin\n", unknown("Europe/Berlin\n", #" (did you mean "Europe/Berlin"?)"#)),
        ("Etc/GMT+13", unknown("Etc/GMT+13", #" (did you mean "Etc/GMT+1"?)"#)),
        ("utc", unknown("utc", #" (did you mean "UTC"?)"#)),
        ("", unknown("")),
        ("Mars/Olympus", unknown("Mars/Olympus")),
    ])
    func unknownTimeZoneIsAnErrorThatSuggestsTheNearestIdentifier(zone: String, message: String) throws {
        #expect(try Self.message(for: zone) == message)
    }

    @Test(arguments: [
        ("GMT+5", unknown("GMT+5", written("+05:00", "Etc/GMT-5"))),
        ("UTC+5", unknown("UTC+5", written("+05:00", "Etc/GMT-5"))),
        ("UTC-03:00", unknown("UTC-03:00", written("-03:00", "Etc/GMT+3"))),
        ("gmt+14", unknown("gmt+14", written("+14:00", "Etc/GMT-14"))),
        ("GMT+0500", unknown("GMT+0500", written("+05:00", "Etc/GMT-5"))),
        ("UT-12", unknown("UT-12", written("-12:00", "Etc/GMT+12"))),
        ("GMT+0", unknown("GMT+0", #"; a zero offset is written "UTC""#)),
        (
            "UTC+05:30",
            unknown(
                "UTC+05:30",
                "; no identifier names the fixed offset +05:30: name the place whose clock you mean")
        ),
        (
            "GMT-13",
            unknown(
                "GMT-13", "; no identifier names the fixed offset -13:00: name the place whose clock you mean"
            )
        ),
    ])
    func offsetSpelledWithGMTOrUTCIsAnErrorNamingTheEtcIdentifier(zone: String, message: String) throws {
        #expect(try Self.message(for: zone) == message)
    }

    @Test func factoryIsNotATimeZone() throws {
        #expect(
            try Self.message(for: "Factory")
                == #"unknown time zone "Factory"; \#(Self.expected) ("Factory" is tzdata's placeholder "#
                + #"for a machine whose zone is not set, not a place's time zone)"#)
    }

    /// Foundation maps these (ICU's `BST` is Asia/Dhaka, `IST` Asia/Kolkata), but they are not
    /// IANA identifiers.
    @Test(arguments: ["BST", "IST", "PST", "EST5EDT", "CET", "SystemV/AST4", "US/Eastern", "Etc/Unknown"])
    func abbreviationOrLegacyNameIsNotATimeZone(zone: String) throws {
        let message = try #require(try Self.message(for: zone))
        #expect(message.hasPrefix("unknown time zone \(zone.debugDescription); \(Self.expected)"))
    }

    @Test(arguments: [
        "Europe/Berlin", "UTC", "GMT", "Asia/Kolkata", "Asia/Calcutta", "Europe/Kyiv", "Etc/UTC",
        "Etc/GMT-14",
        "Etc/GMT+12", "America/Argentina/Buenos_Aires", "America/Indiana/Indianapolis", "Antarctica/Troll",
    ])
    func ianaIdentifierIsAccepted(zone: String) throws {
        let policy = try TimeWindow(
            days: [.mon], from: LocalTime("09:00"), to: LocalTime("17:00"), timeZone: zone)
        #expect(policy.description == "Mon 09:00–17:00 \(zone)")
    }

    @Test func everyKnownIdentifierButFactoryIsAccepted() throws {
        for zone in TimeZone.knownTimeZoneIdentifiers where zone != "Factory" {
            #expect(throws: Never.self, "\(zone)") {
                try TimeWindow(days: [.mon], from: LocalTime("09:00"), to: LocalTime("17:00"), timeZone: zone)
            }
        }
    }

    @Test func etcGMTMinusFiveIsFiveHoursAheadOfUTC() async throws {
        let clock = T.Clock()
        let ahead = try T.window([.wed], "09:00", "17:00", in: "Etc/GMT-5", clock: clock)
        let behind = try T.window([.wed], "09:00", "17:00", in: "Etc/GMT+5", clock: clock)
        // 2026-01-14 is a Wednesday.
        #expect(try await T.decide(ahead, clock, at: T.instant("2026-01-14T04:00:00Z")).isAllowed)
        #expect(
            try await T.decide(behind, clock, at: T.instant("2026-01-14T04:00:00Z"))
                == .deny(reason: "outside Wed 09:00–17:00 Etc/GMT+5; it is Tue 23:00 there"))
    }
}
