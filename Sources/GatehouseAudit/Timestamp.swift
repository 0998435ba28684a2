import Foundation

/// RFC 3339 in UTC with microseconds (`2026-12-01T13:45:00.123456Z`), with no formatter and no
/// shared state.
enum Timestamp {
    /// Seconds from 1970-01-01 to Foundation's reference date, 2001-01-01 (both UTC).
    private static let referenceDateOffset: Int64 = 978_307_200

    /// Appends `date`, microseconds rounded, clamped to the years 0001–9999 RFC 3339 can write.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        // The reference-date interval keeps more precision than the 1970 one for current dates.
        let interval = date.timeIntervalSinceReferenceDate
        let minimum = -62_135_596_800 - Double(referenceDateOffset)  // 0001-01-01T00:00:00Z
        let maximum = 253_402_300_799.999999 - Double(referenceDateOffset)  // 9999-12-31T23:59:59.999999Z
        let clamped = interval.isNaN ? 0 : min(max(interval, minimum), maximum)
        let microseconds = min(Int64((clamped * 1_000_000).rounded()), Int64(maximum * 1_000_000))
        let (seconds, fraction) = floorDivision(microseconds, by: 1_000_000)
        let (days, secondOfDay) = floorDivision(seconds + referenceDateOffset, by: 86_400)
        let (year, month, day) = civil(fromDays: days)
        let fields: [(value: Int64, width: Int, separator: Unicode.Scalar)] = [
            (year, 4, "-"), (month, 2, "-"), (day, 2, "T"), (secondOfDay / 3600, 2, ":"),
            (secondOfDay / 60 % 60, 2, ":"), (secondOfDay % 60, 2, "."), (fraction, 6, "Z"),
        ]
        for field in fields {
            appendDigits(field.value, width: field.width, to: &bytes)
            bytes.append(UInt8(ascii: field.separator))
        }
    }

    /// The quotient rounded down, and the remainder, never negative.
    private static func floorDivision(_ value: Int64, by divisor: Int64) -> (Int64, Int64) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Appends `value` (not negative) in decimal, padded with zeros to `width` digits.
    static func appendDigits(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        let digits = String(value).utf8
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
        bytes.append(contentsOf: digits)
    }
}
