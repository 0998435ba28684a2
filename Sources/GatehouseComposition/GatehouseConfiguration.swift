import Foundation
import GatehouseCore
import GatehousePolicies

/// A configuration file: named services and optionally a decision log (docs/configuration.md).
/// Equality compares services by name, not position: `JSONDecoder` does not keep the file's order.
public struct GatehouseConfiguration: Sendable, Hashable, Codable {
    /// The services, in file order.
    public var services: [ServiceConfiguration]
    /// The top-level `"decisionLog"`, if any: one JSON line per decision of every service.
    public var decisionLog: DecisionLogConfiguration?

    /// Whether both have the same services, in any order, and the same decision log.
    public static func == (lhs: GatehouseConfiguration, rhs: GatehouseConfiguration) -> Bool {
        lhs.services.sorted { $0.name < $1.name } == rhs.services.sorted { $0.name < $1.name }
            && lhs.decisionLog == rhs.decisionLog
    }

    /// Hashes the services regardless of their order, and the decision log.
    public func hash(into hasher: inout Hasher) {
        for service in services.sorted(by: { $0.name < $1.name }) { hasher.combine(service) }
        hasher.combine(decisionLog)
    }

    /// Creates a configuration from services and, optionally, a decision log.
    package init(services: [ServiceConfiguration], decisionLog: DecisionLogConfiguration? = nil) {
        self.services = services
        self.decisionLog = decisionLog
    }

    /// Reads a configuration from UTF-8 JSON; throws a ``ConfigurationError`` listing every shape
    /// problem (an invisible character in any string or key is one) with its location.
    public init(json data: Data, file: URL? = nil) throws {
        self = try Self.checked(Self.read(json: data, file: file), file: file)
    }

    /// Reads a configuration file, or a pipe such as `/dev/stdin`, of at most 16 MiB; a pipe
    /// that has not ended within 10 seconds is a ``ConfigurationError``, never a hang.
    public init(contentsOf url: URL) throws {
        self = try Self.checked(Self.read(contentsOf: url), file: url)
    }

    private static func checked(_ read: Read, file: URL?) throws -> Self {
        guard read.issues.isEmpty else { throw ConfigurationError(file: file, issues: read.issues) }
        return read.configuration
    }

    /// As much of a configuration as its shape allows, the shape's issues, and the JSON as read
    /// (for the file order of every later issue).
    typealias Read = (configuration: Self, issues: [ConfigurationError.Issue], document: JSONValue)

    /// Reads as much of a configuration file as its shape allows, as ``read(json:file:)`` does.
    static func read(contentsOf url: URL) throws -> Read {
        let bytes: [UInt8]
        do {
            bytes = Array(
                try BoundedRead.contents(
                    ofFile: url.path, limit: 16 << 20, expected: "a configuration file",
                    accepting: .anythingButDirectories, patience: .seconds(10)))
        } catch {
            throw ConfigurationError(file: url, message: error.message)
        }
        return try read(json: Data(bytes), file: url)
    }

    /// Reads as much of a configuration as its shape allows, with the shape's issues, for the
    /// ``Assembler`` to check the rest in the same pass; throws when the text is not UTF-8 JSON.
    static func read(json data: Data, file: URL?) throws -> Read {
        let bytes = Array(data)
        if let encoding = WideEncoding.name(of: bytes) {
            throw ConfigurationError(
                file: file, message: "the configuration is \(encoding), not UTF-8; save it as UTF-8")
        }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        if text.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
            throw ConfigurationError(
                file: file,
                message:
                    "the configuration is \(text.isEmpty ? "empty" : "only white space"); \(Self.expected)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ConfigurationError(
                file: file, message: "invalid JSON: \(error.message)", line: error.line, column: error.column)
        }
        let read = read(value)
        return (read.configuration, read.issues, value)
    }

    /// As much of a configuration as its shape allows, and every problem of its shape.
    private static func read(_ value: JSONValue) -> (configuration: Self, issues: [ConfigurationError.Issue])
    {
        guard case .object = value else {
            return (
                Self(services: []),
                [.init(path: "", message: "the configuration is \(value.kindDescription); \(expected)")]
            )
        }
        let issues = IssueCollector()
        ConfigurationCharacters.check(value, at: "", issues: issues)
        let outcome = ConfigurationDecoder.decode(Self.self, from: value)
        for issue in outcome.unknownKeys + outcome.problems {
            issues.add(ConfigurationPath.appending("", issue.path), issue.message)
        }
        return (outcome.value ?? Self(services: []), issues.issues)
    }

    /// What a configuration must be, for messages about one that is not.
    static let expected = #"expected a JSON object such as {"services": {...}}"#

    /// The top level's keys.
    enum Key: String, ConfigurationKeys {
        case services, decisionLog
        case schema = "$schema"
        static let shape = "an object"
        static let holds = #"the top level has "services", "decisionLog" (and "$schema")"#
    }

    /// Decodes `{"services": {...}, "decisionLog": {...}}`; from a decoder of its own, throws the
    /// first problem the configuration's reader finds.
    public init(from decoder: any Decoder) throws {
        guard ConfigurationDecoder.isReading(decoder) else {
            let read = Self.read(try decoder.json())
            if let first = read.issues.first {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: first.description))
            }
            self = read.configuration
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        let decisionLog = try container.read(DecisionLogConfiguration.self, ifGiven: .decisionLog)
        var services: [ServiceConfiguration] = []
        switch try container.json(.services) {
        case .object(let named)?:
            if named.members.isEmpty {
                try decoder.report("empty; name at least one service", at: Key.services)
            }
            let entries = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .services)
            services = try named.keys.compactMap {
                try entries.read(Reading<ServiceConfiguration>.self, forKey: AnyCodingKey(stringValue: $0))?
                    .value
            }
        case nil:
            try decoder.report("missing; name at least one service", at: Key.services)
        case let other?:
            try decoder.report(
                "expected an object of named services, found \(other.kindDescription)", at: Key.services)
        }
        self.init(services: services, decisionLog: decisionLog)
    }

    /// Encodes `{"services": {...}}` in service order, then the decision log if any.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// The configuration as JSON, services in order, then the decision log if any.
    package var json: JSONValue {
        var object = JSONObject([("services", .object(JSONObject(services.map { ($0.name, $0.json) })))])
        if let decisionLog { object["decisionLog"] = decisionLog.json }
        return .object(object)
    }
}

/// One named service: a loader, an optional cache placed behind the gate, the gatekeepers in
/// order, and optional shadow gatekeepers that are evaluated and reported but never enforced.
public struct ServiceConfiguration: Sendable, Hashable {
    /// The service's name, the key under `services`.
    public var name: String
    /// The real service.
    public var loader: ComponentConfiguration
    /// A cache behind the gate, if any.
    public var cache: CacheConfiguration?
    /// The gatekeepers, asked in order on every call. Must not be empty.
    public var gatekeepers: [ComponentConfiguration]
    /// Dry-run gatekeepers: evaluated on every call and reported to the observer, never enforced.
    public var shadow: [ComponentConfiguration]
    /// The attribute names this service's requests carry, or `nil` when not declared; its rules
    /// files may read no other (see docs/policies.md, "Declared attributes").
    public var attributes: [String]?
    /// Where the resources' own attributes come from, or `nil`; they win over the caller's.
    public var resourceAttributes: ComponentConfiguration?
    /// The path of an invariants file, or `nil`: read once at assembly, every rules file of the
    /// service must keep its invariants in every version (see docs/invariants.md).
    public var invariants: String?

    /// Creates a service.
    package init(
        name: String,
        loader: ComponentConfiguration,
        cache: CacheConfiguration? = nil,
        gatekeepers: [ComponentConfiguration],
        shadow: [ComponentConfiguration] = [],
        attributes: [String]? = nil,
        resourceAttributes: ComponentConfiguration? = nil,
        invariants: String? = nil
    ) {
        self.name = name
        self.loader = loader
        self.cache = cache
        self.gatekeepers = gatekeepers
        self.shadow = shadow
        self.attributes = attributes
        self.resourceAttributes = resourceAttributes
        self.invariants = invariants
    }

    static let noOpenDoor =
        "a service without gatekeepers is not an open door (use alwaysAllow if you mean it)"

    var json: JSONValue {
        var object = JSONObject([("loader", loader.json)])
        if let cache { object["cache"] = cache.json }
        object["gatekeepers"] = .array(gatekeepers.map(\.json))
        if !shadow.isEmpty { object["shadow"] = .array(shadow.map(\.json)) }
        if let attributes { object["attributes"] = .array(attributes.map { .string($0) }) }
        if let resourceAttributes { object["resourceAttributes"] = resourceAttributes.json }
        if let invariants { object["invariants"] = .string(invariants) }
        return .object(object)
    }
}

/// The cache placed behind a service's gate: least recently used entries are evicted to keep
/// within the limits. At least one limit is given; each is a positive whole number.
public struct CacheConfiguration: Sendable, Hashable, Codable {
    /// The most entries kept, if limited.
    public var countLimit: Int?
    /// The most bytes kept (the sum of the resources' sizes), if limited.
    public var byteLimit: Int?

    /// Creates a cache configuration.
    package init(countLimit: Int? = nil, byteLimit: Int? = nil) {
        self.countLimit = countLimit
        self.byteLimit = byteLimit
    }

    var json: JSONValue {
        var object = JSONObject()
        if let countLimit { object["countLimit"] = .number(String(countLimit)) }
        if let byteLimit { object["byteLimit"] = .number(String(byteLimit)) }
        return .object(object)
    }
}

extension ServiceConfiguration: ConfigurationReadable {
    /// A service's keys.
    enum Key: String, ConfigurationKeys {
        case loader, cache, gatekeepers, shadow, attributes, resourceAttributes, invariants
        static let shape = #"an object with "loader" and "gatekeepers""#
        static var holds: String { "a service has \(quotedNames)" }
    }

    /// Reads a service named by its key; kept despite problems in its other parts, so that the
    /// assembler checks its components too, but not without a loader.
    init(reading decoder: any Decoder) throws {
        let name = decoder.codingPath.last?.stringValue ?? ""
        let container = try decoder.container(keyedBy: Key.self)
        let loader = try container.read(ComponentConfiguration.self, forKey: .loader)
        if !container.contains(.loader) {
            try decoder.report("missing; say which loader serves this service", at: Key.loader)
        }
        let cache = try container.read(CacheConfiguration.self, ifGiven: .cache)
        let gatekeepers = try container.components(.gatekeepers, in: decoder)
        switch try container.json(.gatekeepers) {
        case nil: try decoder.report("missing; " + Self.noOpenDoor, at: Key.gatekeepers)
        case .array([])?: try decoder.report("empty; " + Self.noOpenDoor, at: Key.gatekeepers)
        default: break
        }
        let shadow = try container.components(.shadow, in: decoder)
        let attributes = try container.strings(
            .attributes, of: "attribute name", found: \.kindDescription, in: decoder)
        let resourceAttributes =
            try container.decodeNil(forKey: .resourceAttributes)
            ? nil : try container.read(ComponentConfiguration.self, forKey: .resourceAttributes)
        var invariants: String?
        if let value = try container.json(.invariants), value != .null {
            if case .string(let path) = value, !path.isEmpty {
                invariants = path
            } else {
                try decoder.report(
                    "expected the path of an invariants file, found \(value.shown)", at: Key.invariants)
            }
        }
        guard let loader else { throw ConfigurationDecoder.Recorded() }
        self.init(
            name: name, loader: loader, cache: cache, gatekeepers: gatekeepers, shadow: shadow,
            attributes: attributes, resourceAttributes: resourceAttributes, invariants: invariants)
    }
}

extension CacheConfiguration: ConfigurationReadable {
    /// A cache's keys.
    enum Key: String, ConfigurationKeys {
        case countLimit, byteLimit
        static let shape = #"an object with "countLimit" and/or "byteLimit""#
        static let holds = #"a cache has "countLimit" and "byteLimit""#
    }

    /// Reads a cache; throws ``ConfigurationDecoder/Recorded`` when any of it is wrong.
    init(reading decoder: any Decoder) throws {
        let before = ConfigurationDecoder.problemCount(of: decoder)
        let container = try decoder.container(keyedBy: Key.self)
        countLimit = try container.positiveInteger(.countLimit, in: decoder)
        byteLimit = try container.positiveInteger(.byteLimit, in: decoder)
        if !container.contains(.countLimit) && !container.contains(.byteLimit) {
            try decoder.report("give \"countLimit\", \"byteLimit\" or both")
        }
        guard ConfigurationDecoder.problemCount(of: decoder) == before else {
            throw ConfigurationDecoder.Recorded()
        }
    }
}
