import Foundation

/// Parses the `--at` instant strictly: `YYYY-MM-DDTHH:MM:SS`, an optional fraction (`.5`), then
/// `Z` or an offset (`+02:00`, `-0530`, `+01`). A field out of range for its date (`2026-02-30`,
/// hour 24, second 60) is refused, never rolled over as a lenient parser would.
enum Instant {
    /// Why a text is not an instant: a sentence for the usage message.
    struct Invalid: Error, Equatable {
        var reason: String
    }

    /// What `--at` and a test case's `at` take, for messages: `expected \(description)`.
    static let description =
        "an ISO-8601 instant such as 2026-11-30T10:00:00Z or 2026-11-30T11:00:00+01:00"

    static let shape =
        "write YYYY-MM-DDTHH:MM:SS, optionally a fraction (.5), then Z or an offset such as +02:00"

    /// The instant `text` names.
    ///
    /// - Throws: ``Invalid`` saying which part is malformed or out of range.
    static func parse(_ text: String) throws(Invalid) -> Date {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"),
            let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2), scanner.take("T"),
            let hour = scanner.digits(2), scanner.take(":"),
            let minute = scanner.digits(2), scanner.take(":"),
            let second = scanner.digits(2)
        else { throw Invalid(reason: shape) }
        var fraction = 0.0
        if scanner.take(".") {
            guard let digits = scanner.fractionDigits() else { throw Invalid(reason: shape) }
            fraction = Double("0." + digits) ?? 0
        }
        let offsetSeconds: Int
        if scanner.take("Z") {
            offsetSeconds = 0
        } else if let sign = scanner.sign(), let hours = scanner.digits(2) {
            var minutes = 0
            if scanner.take(":") {
                guard let value = scanner.digits(2) else { throw Invalid(reason: shape) }
                minutes = value
            } else if let value = scanner.digits(2) {
                minutes = value
            }
            guard hours <= 23, minutes <= 59 else {
                throw Invalid(reason: "the offset must be at most 23:59 (hours 00–23, minutes 00–59)")
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            throw Invalid(reason: shape)
        }
        guard scanner.atEnd else { throw Invalid(reason: shape) }

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let yearMonth = String(format: "%04d-%02d", year, month)
        guard year >= 1 else { throw Invalid(reason: "there is no year 0000; years run from 0001") }
        guard (1...12).contains(month) else {
            throw Invalid(reason: "there is no month \(String(format: "%02d", month)); months run 01–12")
        }
        let firstOfMonth = calendar.date(from: DateComponents(year: year, month: month, day: 1))
        let days = firstOfMonth.flatMap { calendar.range(of: .day, in: .month, for: $0) }?.count ?? 31
        guard (1...days).contains(day) else {
            throw Invalid(
                reason: "there is no day \(String(format: "%02d", day)) in \(yearMonth); it has \(days) days")
        }
        guard hour <= 23 else {
            throw Invalid(reason: "there is no hour \(hour); hours run 00–23 (write 00:00 of the next day)")
        }
        guard minute <= 59 else { throw Invalid(reason: "there is no minute \(minute); minutes run 00–59") }
        guard second <= 59 else {
            throw Invalid(
                reason: "there is no second \(second); seconds run 00–59 (leap seconds are not supported)")
        }

        // Belt and braces: the calendar must give back exactly the fields it was given, so
        // nothing was normalized into another day or minute.
        let fields = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let local = calendar.date(from: fields),
            calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local) == fields
        else {
            throw Invalid(reason: "it does not name a real instant")
        }
        return local.addingTimeInterval(fraction - Double(offsetSeconds))
    }

    /// Reads ASCII digits and separators from the front of the text.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        /// Consumes `character` if it is next.
        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(character.value) else { return false }
            position += 1
            return true
        }

        /// Exactly `count` ASCII digits, as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// One or more ASCII digits, as text.
        mutating func fractionDigits() -> String? {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// `+1` or `-1` for a leading `+` or `-`.
        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
