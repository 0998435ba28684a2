/// A day of the week, in ISO order: Monday first. The raw value is the configuration
/// spelling, `"mon"` through `"sun"`.
public enum Weekday: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    /// Monday.
    case mon
    /// Tuesday.
    case tue
    /// Wednesday.
    case wed
    /// Thursday.
    case thu
    /// Friday.
    case fri
    /// Saturday.
    case sat
    /// Sunday.
    case sun

    /// The day for display: `"Mon"` through `"Sun"`.
    public var shortName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Whether `lhs` comes before `rhs` in a Monday-first week.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// A set of days for display, Monday first, runs of three or more as a range: `Mon–Fri`,
    /// `Mon, Wed, Fri`, `Wed, Sat–Mon`; the empty set is `no day`.
    public static func summary(of days: Set<Weekday>) -> String {
        let present = allCases.map(days.contains)
        guard let gap = present.firstIndex(of: false) else { return "Mon–Sun" }
        guard present.contains(true) else { return "no day" }
        func name(_ index: Int) -> String { allCases[index].shortName }
        var parts: [(start: Int, text: String)] = []
        var run: [Int] = []
        // From just after a missing day round to it, so that no run is cut in two and the last
        // one ends at the gap.
        for index in ((gap + 1)...(gap + 7)).map({ $0 % 7 }) {
            if present[index] {
                run.append(index)
            } else if let first = run.first, let last = run.last {
                parts +=
                    run.count >= 3 ? [(first, name(first) + "–" + name(last))] : run.map { ($0, name($0)) }
                run = []
            }
        }
        return parts.sorted { $0.start < $1.start }.map(\.text).joined(separator: ", ")
    }

    /// Decodes `"mon"` through `"sun"`; anything else is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Weekday(rawValue: text) else {
            let names = Weekday.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected one of \(names), found \(text.debugDescription)")
        }
        self = day
    }
}
