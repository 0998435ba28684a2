/// A time of day on the wall clock, to the minute, written (and encoded) as exactly `HH:mm`,
/// `00:00` through `23:59`.
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The hour, 0 through 23.
    public let hour: Int
    /// The minute, 0 through 59.
    public let minute: Int

    /// Creates a time from an hour (0–23) and a minute (0–59).
    ///
    /// - Throws: ``PolicyConfigurationError`` (policy `"localTime"`) when either is out of range.
    public init(hour: Int, minute: Int) throws(PolicyConfigurationError) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else {
            throw PolicyConfigurationError(
                policy: "localTime",
                message: "expected hour 0–23 and minute 0–59, found hour \(hour), minute \(minute)")
        }
        self.hour = hour
        self.minute = minute
    }

    /// Parses exactly `HH:mm` in ASCII digits, such as `"09:00"` or `"23:59"`.
    ///
    /// - Throws: ``PolicyConfigurationError`` (policy `"localTime"`), such as
    ///   `expected HH:mm, found "9am"`.
    public init(_ text: String) throws(PolicyConfigurationError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
            bytes.indices.allSatisfy({ $0 == 2 || (0x30...0x39).contains(bytes[$0]) }),
            let hour = Int(text.prefix(2)), let minute = Int(text.suffix(2))
        else {
            throw PolicyConfigurationError(
                policy: "localTime", message: "expected HH:mm, found \(text.debugDescription)")
        }
        guard hour < 24, minute < 60 else {
            throw PolicyConfigurationError(
                policy: "localTime",
                message: "expected HH:mm from 00:00 to 23:59, found \(text.debugDescription)")
        }
        self.hour = hour
        self.minute = minute
    }

    /// Minutes since midnight, 0 through 1439.
    public var minutesSinceMidnight: Int { hour * 60 + minute }

    /// The time as `HH:mm`, such as `09:05`.
    public var description: String { Self.clock(minutesSinceMidnight) }

    /// Whether `lhs` is earlier in the day than `rhs`.
    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }

    /// Decodes an `HH:mm` string (else `DecodingError.dataCorrupted`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes the time as its `HH:mm` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `HH:mm` for a count of minutes under a day: `545` → `"09:05"`.
    static func clock(_ minutes: Int) -> String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
        return twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60)
    }
}
