import Foundation
import GatehouseCore

/// Which time zone identifiers a ``TimeWindow`` accepts, and why one is not.
///
/// `TimeZone(identifier:)` alone is too lenient: it reads `GMT+5` as +05:00 while `Etc/GMT+5`
/// is −05:00, maps `BST` to Asia/Dhaka, and knows `Factory`. Linux lists one name per place and
/// no `Etc/` zone, so a name in an IANA area is also accepted when the zone data holds it exactly.
package enum TimeWindowZone {
    /// The zone named `identifier`, or `nil` when it is not an accepted IANA identifier.
    package static func zone(_ identifier: String) -> TimeZone? {
        // `listed` leaves `Factory` out, and it is in no area.
        if listed.contains(identifier) {
            return TimeZone(identifier: identifier)
        }
        guard let slash = identifier.firstIndex(of: "/"), areas.contains(identifier[..<slash]) else {
            return nil
        }
        return TimeZone(identifier: identifier).flatMap { $0.identifier == identifier ? $0 : nil }
    }

    /// Why `identifier` is not accepted, with a did-you-mean, or for an offset such as `GMT+5`
    /// the `Etc/` identifier that spells it.
    package static func problem(with identifier: String) -> String {
        let sentence =
            "unknown time zone \(identifier.debugDescription); expected an IANA identifier such as \"Europe/Berlin\""
        if identifier == "Factory" {
            return sentence
                + " (\"Factory\" is tzdata's placeholder for a machine whose zone is not set, not a place's time zone)"
        }
        if let minutes = fixedOffsetMinutes(identifier) {
            return sentence + "; " + fixedOffsetHint(minutes)
        }
        return sentence
            + (closestName(to: identifier, among: candidates).map { " (did you mean \"\($0)\"?)" } ?? "")
    }

    /// The IANA areas: the first component of every location identifier, and `Etc`.
    private static let areas: Set<Substring> = [
        "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian",
        "Pacific", "Etc",
    ]

    /// `TimeZone.knownTimeZoneIdentifiers`, `UTC` and `GMT`, without `Factory`.
    private static let listed: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers)
        .union(["UTC", "GMT"]).subtracting(["Factory"])

    /// What a suggestion is chosen from, sorted so that ties always go the same way.
    private static let candidates: [String] = {
        let fixed = (-14...12).map { $0 == 0 ? "Etc/GMT" : $0 < 0 ? "Etc/GMT\($0)" : "Etc/GMT+\($0)" }
        let etc = (fixed + ["Etc/UTC"]).filter { TimeZone(identifier: $0) != nil }
        return listed.union(etc).sorted()
    }()

    /// The offset east of UTC, in minutes, when `identifier` spells one as Foundation would read
    /// it (`GMT+5`, `utc-03:00`), else `nil`.
    private static func fixedOffsetMinutes(_ identifier: String) -> Int? {
        let offset = /(?:GMT|UTC|UT)([+-])([0-9]{1,2}|[0-9]{2}:?[0-9]{2})/
        guard let match = identifier.uppercased().wholeMatch(of: offset),
            let number = Int(match.2.filter { $0 != ":" })
        else { return nil }
        let (hours, minutes) = match.2.count >= 4 ? (number / 100, number % 100) : (number, 0)
        guard hours < 24, minutes < 60 else { return nil }
        return (match.1 == "+" ? 1 : -1) * (hours * 60 + minutes)
    }

    /// `a fixed offset of +05:00 is written "Etc/GMT-5" (Etc names invert the sign)`, or why none is.
    private static func fixedOffsetHint(_ minutes: Int) -> String {
        guard minutes != 0 else { return "a zero offset is written \"UTC\"" }
        let magnitude = abs(minutes)
        let offset = (minutes > 0 ? "+" : "-") + LocalTime.clock(magnitude)
        let hours = minutes / 60
        guard minutes % 60 == 0, (-12...14).contains(hours) else {
            return "no identifier names the fixed offset \(offset): name the place whose clock you mean"
        }
        let etc = "Etc/GMT" + (hours > 0 ? "-\(hours)" : "+\(-hours)")
        return "a fixed offset of \(offset) is written \"\(etc)\" (Etc names invert the sign)"
    }
}
