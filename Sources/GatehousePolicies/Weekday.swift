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
    public var shortName: String {
        switch self {
        case .mon: "Mon"
        case .tue: "Tue"
        case .wed: "Wed"
        case .thu: "Thu"
        case .fri: "Fri"
        case .sat: "Sat"
        case .sun: "Sun"
        }
    }

    /// Whether `lhs` comes before `rhs` in a Monday-first week.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.isoIndex < rhs.isoIndex
    }

    /// A set of days for display: runs of three or more consecutive days as a range, other days
    /// listed, Monday first: `Mon–Fri`, `Mon, Wed, Fri`, `Mon–Wed, Sat`, `Mon–Sun`.
    ///
    /// A run may wrap past Sunday and is then placed where it starts: `Fri–Mon`,
    /// `Wed, Sat–Mon`. The empty set prints as `no day`.
    public static func summary(of days: Set<Weekday>) -> String {
        let present = (0..<7).map { days.contains(Weekday(isoIndex: $0)) }
        guard present.contains(true) else { return "no day" }
        guard present.contains(false) else { return "Mon–Sun" }
        // Start scanning just after a missing day, so that no run is cut in two.
        let gap = present.firstIndex(of: false) ?? 0
        var runs: [(start: Int, length: Int)] = []
        for step in 1...7 {
            let index = (gap + step) % 7
            guard present[index] else { continue }
            if let last = runs.last, (last.start + last.length) % 7 == index {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((index, 1))
            }
        }
        var parts: [(start: Int, text: String)] = []
        for run in runs {
            if run.length >= 3 {
                let first = Weekday(isoIndex: run.start).shortName
                let last = Weekday(isoIndex: (run.start + run.length - 1) % 7).shortName
                parts.append((run.start, first + "–" + last))
            } else {
                for offset in 0..<run.length {
                    let index = (run.start + offset) % 7
                    parts.append((index, Weekday(isoIndex: index).shortName))
                }
            }
        }
        return parts.sorted { $0.start < $1.start }.map(\.text).joined(separator: ", ")
    }

    /// Decodes `"mon"` through `"sun"`; anything else is a `DecodingError.dataCorrupted` whose
    /// description is `expected one of mon, tue, wed, thu, fri, sat, sun, found "monday"`.
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

    /// Encodes the raw value, `"mon"` through `"sun"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// 0 for Monday through 6 for Sunday.
    var isoIndex: Int {
        switch self {
        case .mon: 0
        case .tue: 1
        case .wed: 2
        case .thu: 3
        case .fri: 4
        case .sat: 5
        case .sun: 6
        }
    }

    /// The day for an index 0 (Monday) through 6 (Sunday); other values wrap around the week.
    init(isoIndex: Int) {
        switch ((isoIndex % 7) + 7) % 7 {
        case 0: self = .mon
        case 1: self = .tue
        case 2: self = .wed
        case 3: self = .thu
        case 4: self = .fri
        case 5: self = .sat
        default: self = .sun
        }
    }
}
