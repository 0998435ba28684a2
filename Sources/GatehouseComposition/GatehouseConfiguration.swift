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
        let issues = IssueCollector()
        return (Self(value, issues: issues), issues.issues, value)
    }

    /// What a configuration must be, for messages about one that is not.
    static let expected = #"expected a JSON object such as {"services": {...}}"#

    /// Decodes `{"services": {...}, "decisionLog": {...}}`.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        let issues = IssueCollector()
        self.init(value, issues: issues)
        if let first = issues.issues.first {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: first.description))
        }
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

    /// As much of a configuration as its shape allows, every shape problem in `issues`.
    private init(_ value: JSONValue, issues: IssueCollector) {
        guard case .object(let root) = value else {
            issues.add("", "the configuration is \(value.kindDescription); \(Self.expected)")
            self.init(services: [])
            return
        }
        ConfigurationCharacters.check(value, at: "", issues: issues)
        issues.addUnknownKeys(
            of: root, at: "", known: ["services", "decisionLog", "$schema"],
            #"the top level has "services", "decisionLog" (and "$schema")"#)
        let decisionLog = root["decisionLog"].flatMap {
            $0 == .null ? nil : DecisionLogConfiguration(value: $0, path: "decisionLog", issues: issues)
        }
        var services: [ServiceConfiguration] = []
        switch root["services"] {
        case .object(let named)?:
            if named.members.isEmpty { issues.add("services", "empty; name at least one service") }
            services = named.members.compactMap {
                ServiceConfiguration(
                    name: $0.key, value: $0.value, path: ConfigurationPath.member("services", $0.key),
                    issues: issues)
            }
        case nil:
            issues.add("services", "missing; name at least one service")
        case let other?:
            issues.add("services", "expected an object of named services, found \(other.kindDescription)")
        }
        self.init(services: services, decisionLog: decisionLog)
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

    static let keys = [
        "loader", "cache", "gatekeepers", "shadow", "attributes", "resourceAttributes", "invariants",
    ]
    static let noOpenDoor =
        "a service without gatekeepers is not an open door (use alwaysAllow if you mean it)"

    init?(name: String, value: JSONValue, path: String, issues: IssueCollector) {
        guard case .object(let object) = value else {
            issues.add(
                path, "expected an object with \"loader\" and \"gatekeepers\", found \(value.kindDescription)"
            )
            return nil
        }
        issues.addUnknownKeys(
            of: object, at: path, known: Self.keys,
            "a service has \(Self.keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        func at(_ key: String) -> String { ConfigurationPath.member(path, key) }
        func given(_ key: String) -> JSONValue? { object[key] == .null ? nil : object[key] }
        let loader = object["loader"].flatMap {
            ComponentConfiguration($0, path: at("loader"), issues: issues)
        }
        if object["loader"] == nil {
            issues.add(at("loader"), "missing; say which loader serves this service")
        }
        let cache = given("cache").flatMap {
            CacheConfiguration(value: $0, path: at("cache"), issues: issues)
        }
        let gatekeepers = object["gatekeepers"].map {
            Self.components($0, path: at("gatekeepers"), issues: issues)
        }
        if gatekeepers == nil {
            issues.add(at("gatekeepers"), "missing; " + Self.noOpenDoor)
        } else if object["gatekeepers"] == .array([]) {
            issues.add(at("gatekeepers"), "empty; " + Self.noOpenDoor)
        }
        let shadow = object["shadow"].map { Self.components($0, path: at("shadow"), issues: issues) } ?? []
        let attributes = object["attributes"].map {
            issues.strings($0, at: at("attributes"), of: "attribute name", found: \.kindDescription)
        }
        let resourceAttributes = given("resourceAttributes").flatMap {
            ComponentConfiguration($0, path: at("resourceAttributes"), issues: issues)
        }
        var invariants: String?
        if let value = given("invariants") {
            if case .string(let path) = value, !path.isEmpty {
                invariants = path
            } else {
                issues.add(at("invariants"), "expected the path of an invariants file, found \(value.shown)")
            }
        }
        // Kept despite shape problems, so that the assembler checks its other components too.
        guard let loader else { return nil }
        self.init(
            name: name, loader: loader, cache: cache, gatekeepers: gatekeepers ?? [], shadow: shadow,
            attributes: attributes, resourceAttributes: resourceAttributes, invariants: invariants)
    }

    private static func components(_ value: JSONValue, path: String, issues: IssueCollector)
        -> [ComponentConfiguration]
    {
        guard case .array(let values) = value else {
            issues.add(path, "expected an array of components, found \(value.kindDescription)")
            return []
        }
        let components = values.enumerated().compactMap {
            ComponentConfiguration($1, path: ConfigurationPath.element(path, $0), issues: issues)
        }
        // Only a whole list keeps each component at its place (`gatekeepers[2]`).
        return components.count == values.count ? components : []
    }

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

    init?(value: JSONValue, path: String, issues: IssueCollector) {
        guard case .object(let object) = value else {
            issues.add(
                path,
                "expected an object with \"countLimit\" and/or \"byteLimit\", found \(value.kindDescription)")
            return nil
        }
        let before = issues.issues.count
        issues.addUnknownKeys(
            of: object, at: path, known: ["countLimit", "byteLimit"],
            #"a cache has "countLimit" and "byteLimit""#)
        countLimit = issues.positiveInteger("countLimit", in: object, at: path)
        byteLimit = issues.positiveInteger("byteLimit", in: object, at: path)
        if object["countLimit"] == nil && object["byteLimit"] == nil {
            issues.add(path, "give \"countLimit\", \"byteLimit\" or both")
        }
        guard issues.issues.count == before else { return nil }
    }

    var json: JSONValue {
        var object = JSONObject()
        if let countLimit { object["countLimit"] = .number(String(countLimit)) }
        if let byteLimit { object["byteLimit"] = .number(String(byteLimit)) }
        return .object(object)
    }
}
