import Foundation

/// Parses `--at` strictly: a field out of range (`2026-02-30`, hour 24) is refused, never rolled over.
enum Instant {
    /// Why a text is not an instant: a sentence for the usage message.
    struct Invalid: Error, Equatable {
        var reason: String
    }

    /// What `--at` and a test case's `at` take, for messages.
    static let description =
        "an ISO-8601 instant such as 2026-11-30T10:00:00Z or 2026-11-30T11:00:00+01:00"

    static let shape =
        "write YYYY-MM-DDTHH:MM:SS, optionally a fraction (.5), then Z or an offset such as +02:00"

    /// The instant `text` names, or ``Invalid`` saying which part is malformed or out of range.
    static func parse(_ text: String) throws(Invalid) -> Date {
        // Scalar by scalar: a digit or a `Z` with a combining mark on it is no digit or `Z`.
        let format =
            #/
            ([0-9]{4}) - ([0-9]{2}) - ([0-9]{2}) T ([0-9]{2}) : ([0-9]{2}) : ([0-9]{2}) (\.[0-9]+)?
            (?: Z | ([+-]) ([0-9]{2}) (?: :? ([0-9]{2}) )? )
            /#.matchingSemantics(.unicodeScalar)
        guard let match = try? format.wholeMatch(in: text) else { throw Invalid(reason: shape) }
        let number = { (digits: Substring?) in digits.flatMap { Int($0) } ?? 0 }
        let (year, month, day) = (number(match.1), number(match.2), number(match.3))
        let (hour, minute, second) = (number(match.4), number(match.5), number(match.6))
        let (offsetHours, offsetMinutes) = (number(match.9), number(match.10))
        guard offsetHours <= 23, offsetMinutes <= 59 else {
            throw Invalid(reason: "the offset must be at most 23:59 (hours 00–23, minutes 00–59)")
        }

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard year >= 1 else { throw Invalid(reason: "there is no year 0000; years run from 0001") }
        guard (1...12).contains(month) else {
            throw Invalid(reason: "there is no month \(match.2); months run 01–12")
        }
        let firstOfMonth = calendar.date(from: DateComponents(year: year, month: month, day: 1))
        let days = firstOfMonth.flatMap { calendar.range(of: .day, in: .month, for: $0) }?.count ?? 31
        guard (1...days).contains(day) else {
            throw Invalid(reason: "there is no day \(match.3) in \(match.1)-\(match.2); it has \(days) days")
        }
        guard hour <= 23 else {
            throw Invalid(reason: "there is no hour \(hour); hours run 00–23 (write 00:00 of the next day)")
        }
        guard minute <= 59 else { throw Invalid(reason: "there is no minute \(minute); minutes run 00–59") }
        guard second <= 59 else {
            throw Invalid(
                reason: "there is no second \(second); seconds run 00–59 (leap seconds are not supported)")
        }
        // Belt and braces: the calendar must give back exactly the fields it was given.
        let fields = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let local = calendar.date(from: fields),
            calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local) == fields
        else {
            throw Invalid(reason: "it does not name a real instant")
        }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        let offset = (match.8 == "-" ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        return local.addingTimeInterval(fraction - Double(offset))
    }
}
