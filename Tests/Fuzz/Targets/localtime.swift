import Foundation
import GatehouseCore
import GatehousePolicies

/// `LocalTime` parsing and `TimeWindow` construction and decisions on random fields and instants.
///
/// - `LocalTime(text)` accepts exactly two ASCII digits, `:`, two ASCII digits, from 00:00 to
///   23:59, and prints back the same text; `LocalTime(hour:minute:)` accepts exactly the valid
///   ranges and round-trips through its text and through JSON.
/// - `TimeWindow(...)` throws only `PolicyConfigurationError`: for no days, `from == to`, or a
///   zone that is not an accepted IANA identifier (one `TimeZone(identifier:)` knows, never
///   `Factory`; the message starts `unknown time zone`).
/// - Every decision agrees with `Calendar`'s wall-clock reading (between 1900 and 2100), for a
///   sequence of instants on one policy (its offset cache sees the clock jump back and forth),
///   and a denial's reason is the documented sentence; an instant that is not finite or lies
///   outside `TimeWindow.supportedInstants` throws `TimeWindowError` of the matching kind.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzLocalTime(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    checkParsing(input.bytes(Int(input.byte() % 8)))
    checkFields(hour: Int(input.integer(Int8.self)), minute: Int(input.integer(Int8.self)))
    checkWindow(&input)
    return 0
}

private func checkParsing(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let utf8 = Array(text.utf8)
    func digit(_ byte: UInt8) -> Int? { (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil }
    var expected: (Int, Int)?
    if utf8.count == 5, utf8[2] == UInt8(ascii: ":"), let h1 = digit(utf8[0]), let h2 = digit(utf8[1]),
        let m1 = digit(utf8[3]), let m2 = digit(utf8[4]), h1 * 10 + h2 < 24, m1 * 10 + m2 < 60
    {
        expected = (h1 * 10 + h2, m1 * 10 + m2)
    }
    do {
        let time = try LocalTime(text)
        require(expected != nil, "accepted \(text.debugDescription)")
        require(time.hour == expected?.0 && time.minute == expected?.1, "misread \(text.debugDescription)")
        require(time.description == text, "\(text.debugDescription) printed as \(time.description)")
    } catch let error as PolicyConfigurationError {
        require(expected == nil, "refused \(text.debugDescription): \(error)")
        require(
            error.message.contains(text.debugDescription), "the message does not quote the text: \(error)")
    } catch {
        require(false, "LocalTime(_:) threw \(type(of: error))")
    }
}

private func checkFields(hour: Int, minute: Int) {
    let valid = (0..<24).contains(hour) && (0..<60).contains(minute)
    do {
        let time = try LocalTime(hour: hour, minute: minute)
        require(valid, "accepted hour \(hour) minute \(minute)")
        require(time.minutesSinceMidnight == hour * 60 + minute, "minutesSinceMidnight of \(time)")
        require(try LocalTime(time.description) == time, "parse(print(\(time))) differs")
        let json = try JSONEncoder().encode([time])
        require(
            try JSONDecoder().decode([LocalTime].self, from: json) == [time], "JSON round trip of \(time)")
    } catch is PolicyConfigurationError {
        require(!valid, "refused hour \(hour) minute \(minute)")
    } catch {
        require(false, "LocalTime(hour:minute:) threw \(type(of: error))")
    }
}

private let zones = [
    "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Europe/Moscow",
    "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham", "Africa/Casablanca", "America/Sao_Paulo",
    "Antarctica/Troll", "Asia/Pyongyang", "Pacific/Kiritimati", "Europe/Dublin", "America/Caracas",
]

/// 1900-01-01 and 2100-01-01, in seconds since 1970: where the Calendar reference is trusted.
private let referenceRange: ClosedRange<Double> = -2_208_988_800...4_102_444_800

private func checkWindow(_ input: inout FuzzInput) {
    let zoneByte = input.byte()
    let zoneName: String
    if Int(zoneByte) < zones.count * 15 {
        zoneName = zones[Int(zoneByte) % zones.count]
    } else {
        zoneName = String(decoding: input.bytes(Int(input.byte() % 40)), as: UTF8.self)
    }
    let mask = input.byte() & 0x7F
    let days = Set(Weekday.allCases.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element))
    let fromMinute = Int(input.integer(UInt16.self) % 1440)
    let toMinute = Int(input.integer(UInt16.self) % 1440)
    let from = try! LocalTime(hour: fromMinute / 60, minute: fromMinute % 60)
    let to = try! LocalTime(hour: toMinute / 60, minute: toMinute % 60)
    let zone = TimeZone(identifier: zoneName)
    let clock = FuzzClock()
    let window: TimeWindow
    do {
        window = try TimeWindow(days: days, from: from, to: to, timeZone: zoneName, now: clock.read)
        require(
            zone != nil && zoneName != "Factory" && !days.isEmpty && from != to,
            "accepted \(zoneName) \(days) \(from)-\(to)")
    } catch let error as PolicyConfigurationError {
        require(
            error.message.hasPrefix("unknown time zone") || days.isEmpty || from == to,
            "refused \(zoneName) \(days) \(from)-\(to): \(error.message)")
        return
    } catch {
        require(false, "TimeWindow.init threw \(type(of: error))")
        return
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone!
    var instants: [Double] = []
    let first = input.integer(UInt64.self)
    if input.byte() & 1 == 0 {
        let span = referenceRange.upperBound - referenceRange.lowerBound
        instants.append(referenceRange.lowerBound + Double(first % UInt64(span)) + Double(first >> 56) / 256)
    } else {
        instants.append(Double(bitPattern: first))
    }
    for _ in 0..<4 where !input.isAtEnd {
        // Steps of up to about ±3.8 days, in seconds, so that the policy's cached offset is
        // reused, outgrown, and asked about instants before the one it was looked up at.
        instants.append(instants[instants.count - 1] + Double(input.integer(Int16.self)) * 10)
    }
    let decisions = blocking { [window, instants] in
        var decisions: [Result<AccessDecision, TimeWindowError>] = []
        for instant in instants {
            clock.set(instant)
            do {
                decisions.append(.success(try await window.evaluate(AccessRequest(resource: "r"))))
            } catch let error as TimeWindowError {
                decisions.append(.failure(error))
            } catch {
                require(false, "TimeWindow.evaluate threw \(type(of: error))")
            }
        }
        return decisions
    }
    for (instant, outcome) in zip(instants, decisions) {
        let supported = TimeWindow.supportedInstants
        guard instant >= supported.lowerBound.timeIntervalSince1970,
            instant < supported.upperBound.timeIntervalSince1970
        else {
            let kind: TimeWindowError.Kind = instant.isFinite ? .clockOutOfRange : .clockNotFinite
            let thrown: TimeWindowError.Kind? =
                if case .failure(let error) = outcome { error.kind } else { nil }
            require(thrown == kind, "\(instant): \(outcome), expected TimeWindowError.\(kind)")
            continue
        }
        guard case .success(let decision) = outcome else {
            require(false, "\(instant) threw \(outcome)")
            return
        }
        guard referenceRange.contains(instant) else { continue }
        let parts = calendar.dateComponents(
            [.weekday, .hour, .minute], from: Date(timeIntervalSince1970: instant))
        let weekday = (parts.weekday! + 5) % 7
        let minute = parts.hour! * 60 + parts.minute!
        let inside: Bool
        if fromMinute < toMinute {
            inside = mask & (1 << weekday) != 0 && minute >= fromMinute && minute < toMinute
        } else {
            inside =
                (mask & (1 << weekday) != 0 && minute >= fromMinute)
                || (mask & (1 << ((weekday + 6) % 7)) != 0 && minute < toMinute)
        }
        let day = Weekday.allCases[weekday].shortName
        let local = "\(LocalTime.text(minute / 60)):\(LocalTime.text(minute % 60))"
        let reason =
            "outside \(Weekday.summary(of: days)) \(from)–\(to) \(zoneName); it is \(day) \(local) there"
        let expected: AccessDecision = inside ? .allow : .deny(reason: reason)
        require(
            decision == expected,
            "\(zoneName) at \(instant) (sequence \(instants)): \(decision), expected \(expected)")
    }
}

extension LocalTime {
    fileprivate static func text(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

/// The clock a fuzzed policy reads: set between decisions.
private final class FuzzClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double = 0

    func set(_ value: Double) { lock.withLock { seconds = value } }

    var read: @Sendable () -> Date {
        { [self] in Date(timeIntervalSince1970: lock.withLock { seconds }) }
    }
}
