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

extension DecisionLogConfiguration: ConfigurationReadable {
    /// A decision log's keys.
    enum Key: String, ConfigurationKeys {
        case path, mask, capacity, overflow
        static let shape = #"an object with "path""#
        static var holds: String { "a decision log has \(quotedNames)" }
    }

    /// Reads the JSON object, reporting every problem at its place; throws
    /// ``ConfigurationDecoder/Recorded`` when any of it is wrong.
    init(reading decoder: any Decoder) throws {
        let before = ConfigurationDecoder.problemCount(of: decoder)
        let container = try decoder.container(keyedBy: Key.self)
        var file = ""
        switch try container.json(.path) {
        case .string(let text)? where !text.isEmpty:
            file = text
        case nil:
            try decoder.report("missing; name the file to write decisions to", at: Key.path)
        case let other?:
            try decoder.report("expected a non-empty string, found \(other.shown)", at: Key.path)
        }
        let mask = try container.strings(.mask, of: "attribute key", found: \.shown, in: decoder)
        let capacity = try container.positiveInteger(
            .capacity, expected: "a positive whole number of records", in: decoder)
        var overflow = DecisionLog.Overflow.drop
        if let value = try container.json(.overflow) {
            let text: String? = if case .string(let text) = value { text } else { nil }
            if let chosen = text.flatMap(DecisionLog.Overflow.init(rawValue:)) {
                overflow = chosen
            } else {
                let names = DecisionLog.Overflow.allCases.map(\.rawValue)
                let hint = text.map { ConfigurationPath.didYouMean($0, among: names) } ?? ""
                try decoder.report(
                    "expected \"drop\" or \"wait\", found \(value.shown)\(hint)", at: Key.overflow)
            }
        }
        guard ConfigurationDecoder.problemCount(of: decoder) == before else {
            throw ConfigurationDecoder.Recorded()
        }
        self.init(
            path: file, mask: mask ?? [], capacity: capacity ?? DecisionLog.defaultCapacity,
            overflow: overflow)
    }
}
