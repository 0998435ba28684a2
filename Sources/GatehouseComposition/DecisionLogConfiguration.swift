import GatehouseAudit

/// The top-level `"decisionLog"`: a file that receives one JSON line per decision of every
/// service (docs/configuration.md, "Decision log").
public struct DecisionLogConfiguration: Sendable, Hashable {
    /// The log file, relative to the configuration file's folder unless absolute.
    public var path: String
    /// Attribute keys removed from every line.
    public var mask: [String]
    /// The most records queued and not yet written.
    public var capacity: Int
    /// What a full queue does: drop and count, or make the caller wait.
    public var overflow: DecisionLog.Overflow

    /// Creates a decision-log configuration.
    package init(
        path: String, mask: [String] = [], capacity: Int = DecisionLog.defaultCapacity,
        overflow: DecisionLog.Overflow = .drop
    ) {
        self.path = path
        self.mask = mask
        self.capacity = capacity
        self.overflow = overflow
    }

    static let keys = ["path", "mask", "capacity", "overflow"]

    /// Reads the JSON object, reporting every problem at its place.
    init?(value: JSONValue, path: String, issues: IssueCollector) {
        guard case .object(let object) = value else {
            issues.add(path, "expected an object with \"path\", found \(value.kindDescription)")
            return nil
        }
        let before = issues.issues.count
        issues.addUnknownKeys(
            of: object, at: path, known: Self.keys,
            "a decision log has \(Self.keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        func at(_ key: String) -> String { ConfigurationPath.member(path, key) }
        var file = ""
        switch object["path"] {
        case .string(let text)? where !text.isEmpty:
            file = text
        case nil:
            issues.add(at("path"), "missing; name the file to write decisions to")
        case let other?:
            issues.add(at("path"), "expected a non-empty string, found \(other.shown)")
        }
        let mask = object["mask"].map {
            issues.strings($0, at: at("mask"), of: "attribute key", found: \.shown)
        }
        let capacity = issues.positiveInteger(
            "capacity", in: object, at: path, expected: "a positive whole number of records")
        var overflow = DecisionLog.Overflow.drop
        if let overflowValue = object["overflow"] {
            let text: String? = if case .string(let text) = overflowValue { text } else { nil }
            if let chosen = text.flatMap(DecisionLog.Overflow.init(rawValue:)) {
                overflow = chosen
            } else {
                let names = DecisionLog.Overflow.allCases.map(\.rawValue)
                let hint = text.map { ConfigurationPath.didYouMean($0, among: names) } ?? ""
                issues.add(
                    at("overflow"), "expected \"drop\" or \"wait\", found \(overflowValue.shown)\(hint)")
            }
        }
        guard issues.issues.count == before else { return nil }
        self.init(
            path: file, mask: mask ?? [], capacity: capacity ?? DecisionLog.defaultCapacity,
            overflow: overflow)
    }

    /// The configuration as JSON, every key written.
    var json: JSONValue {
        .object(
            JSONObject([
                ("path", .string(path)),
                ("mask", .array(mask.map { .string($0) })),
                ("capacity", .number(String(capacity))),
                ("overflow", .string(overflow.rawValue)),
            ]))
    }
}
