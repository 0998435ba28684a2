import Foundation
import GatehousePolicies
import Testing

@Suite("LocalTime")
struct LocalTimeTests {
    @Test(arguments: [("00:00", 0, 0), ("09:05", 9, 5), ("12:30", 12, 30), ("23:59", 23, 59)])
    func parsesAndPrintsHHmm(text: String, hour: Int, minute: Int) throws {
        let time = try LocalTime(text)
        #expect(time.hour == hour)
        #expect(time.minute == minute)
        #expect(time.minutesSinceMidnight == hour * 60 + minute)
        #expect(time.description == text)
        #expect(time == (try LocalTime(hour: hour, minute: minute)))
    }

    @Test(arguments: [
        ("9am", "expected HH:mm, found \"9am\""),
        ("24:00", "expected HH:mm from 00:00 to 23:59, found \"24:00\""),
        ("12:60", "expected HH:mm from 00:00 to 23:59, found \"12:60\""),
        ("1200", "expected HH:mm, found \"1200\""),
        ("", "expected HH:mm, found \"\""),
        (" 09:00", "expected HH:mm, found \" 09:00\""),
        ("09:00 ", "expected HH:mm, found \"09:00 \""),
        ("-1:00", "expected HH:mm, found \"-1:00\""),
        ("９:００", "expected HH:mm, found \"９:００\""),
        ("9:00", "expected HH:mm, found \"9:00\""),
        ("09:00:00", "expected HH:mm, found \"09:00:00\""),
        ("09.00", "expected HH:mm, found \"09.00\""),
    ])
    func rejectsAnythingButHHmm(text: String, message: String) {
        let error = #expect(throws: PolicyConfigurationError.self) { try LocalTime(text) }
        #expect(error?.policy == "localTime")
        #expect(error?.message == message)
        #expect(error?.errorDescription == "localTime: \(message)")
    }

    @Test(arguments: [(24, 0), (-1, 0), (12, 60), (0, -1)])
    func rejectsHourOrMinuteOutOfRange(hour: Int, minute: Int) {
        let error = #expect(throws: PolicyConfigurationError.self) {
            try LocalTime(hour: hour, minute: minute)
        }
        #expect(error?.message == "expected hour 0–23 and minute 0–59, found hour \(hour), minute \(minute)")
    }

    @Test func ordersByTimeOfDay() throws {
        let times = try ["17:00", "09:30", "00:00", "09:05", "23:59"].map(LocalTime.init)
        #expect(times.sorted().map(\.description) == ["00:00", "09:05", "09:30", "17:00", "23:59"])
    }

    @Test func codesAsAnHHmmString() throws {
        let time = try LocalTime("07:45")
        let json = try JSONEncoder().encode([time])
        #expect(String(decoding: json, as: UTF8.self) == #"["07:45"]"#)
        #expect(try JSONDecoder().decode([LocalTime].self, from: json) == [time])
    }

    @Test func decodingMalformedTextGivesTheParseMessage() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalTime].self, from: Data(#"["9am"]"#.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription == "expected HH:mm, found \"9am\"")
    }
}
