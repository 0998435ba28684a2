import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

/// The built-in component types and their settings, as documented in docs/configuration.md.
enum BuiltInPlugins {
    struct NoSettings: Decodable {}

    struct AlwaysDenySettings: Decodable {
        var reason: String?
    }

    struct AllowListSettings: Decodable {
        var resources: [String]?
        var subjects: [String]?
    }

    struct TimeWindowSettings: Decodable {
        var timeZone: Checked<TimeZoneRule>
        var days: [Checked<WeekdayRule>]
        var from: Checked<LocalTimeRule>
        var to: Checked<LocalTimeRule>
    }

    struct FileSettings: Decodable {
        var path: String
        var requireEnd: Bool?
        var whenInvalid: Checked<WhenInvalidRule>?
    }

    /// `allOf`'s and `anyOf`'s `"gatekeepers"`, or the older `"policies"`.
    struct CombinatorSettings: Decodable {
        var gatekeepers: [ComponentConfiguration]
        /// The key the list was given under, for messages.
        var key: String

        init(from decoder: any Decoder) throws {
            (gatekeepers, key) = try RenamedKey.decode(
                [ComponentConfiguration].self, from: decoder, key: "gatekeepers", oldKey: "policies")
        }
    }

    /// `not`'s `"gatekeeper"`, or the older `"policy"`.
    struct NotSettings: Decodable {
        var gatekeeper: ComponentConfiguration

        init(from decoder: any Decoder) throws {
            gatekeeper = try RenamedKey.decode(
                ComponentConfiguration.self, from: decoder, key: "gatekeeper", oldKey: "policy"
            ).value
        }
    }

    struct DiskSettings: Decodable {
        var root: String
        var maximumFileSize: Int?
    }

    struct MemorySettings: Decodable {
        var resources: [String: String]
    }

    struct JSONAttributesSettings: Decodable {
        var path: String
        var attributes: [String]?
        var maximumFileSize: Int?
        var whenInvalid: Checked<WhenInvalidRule>?
    }

    static func register(in registry: inout PluginRegistry) {
        // The built-in names are distinct and the registry starts empty: none of these throws.
        try? registry.registerGatekeeper(
            "alwaysAllow", settings: NoSettings.self, describe: { _ in "alwaysAllow" },
            factory: { _, _ in AlwaysAllow() })
        try? registry.registerGatekeeper(
            "alwaysDeny", settings: AlwaysDenySettings.self,
            describe: { "alwaysDeny" + ($0.reason.map { ": \"\($0)\"" } ?? "") },
            factory: { settings, _ in settings.reason.map { AlwaysDeny(reason: $0) } ?? AlwaysDeny() })
        try? registry.registerGatekeeper(
            "allowList", settings: AllowListSettings.self, describe: describeAllowList, factory: makeAllowList
        )
        try? registry.registerGatekeeper(
            "timeWindow", settings: TimeWindowSettings.self, describe: describeTimeWindow,
            factory: makeTimeWindow)
        try? registry.registerGatekeeper(
            "file", settings: FileSettings.self, describe: describeFile, factory: makeFile)
        for type in ["allOf", "anyOf"] {
            try? registry.registerGatekeeper(
                type, settings: CombinatorSettings.self, describe: { _ in type },
                factory: { settings, context in try makeCombinator(type, settings, context) })
        }
        try? registry.registerGatekeeper(
            "not", settings: NotSettings.self, describe: { _ in "not" },
            factory: { settings, context in Not(named: try context.member(settings.gatekeeper)) })
        try? registry.registerGatekeeper(
            "remote", settings: RemoteSettings.self, describe: describeRemote, factory: makeRemote)
        try? registry.registerLoader(
            "disk", settings: DiskSettings.self, describe: { "disk: files under \($0.root)" },
            factory: makeDisk)
        try? registry.registerLoader(
            "memory", settings: MemorySettings.self, describe: { "memory: \($0.resources.count) resources" },
            factory: makeMemory)
        try? registry.registerAttributeSource(
            "json", settings: JSONAttributesSettings.self, describe: describeJSONAttributes,
            factory: makeJSONAttributes)
    }

    /// The `json` attribute source, its settings checked.
    static func makeJSONAttributes(
        _ settings: JSONAttributesSettings, _ context: PluginContext
    ) throws -> any AttributeSource {
        var errors = ConfigurationError(issues: [])
        if settings.path.isEmpty { errors.add("path", "expected a file path, found an empty string") }
        for (index, name) in (settings.attributes ?? []).enumerated() where name.isEmpty {
            errors.add("attributes[\(index)]", "expected an attribute name, found an empty string")
        }
        if let size = settings.maximumFileSize, size < 1 {
            errors.add("maximumFileSize", "expected a positive number of bytes, found \(size)")
        }
        try errors.throwIfAny()
        return JSONAttributeSource(
            url: context.resolve(settings.path), path: settings.path,
            declared: settings.attributes.map(Set.init),
            maximumFileSize: settings.maximumFileSize ?? JSONAttributeSource.defaultMaximumFileSize,
            whenInvalid: settings.whenInvalid?.value ?? .deny)
    }

    /// `json: attributes in owners.json`, with the declared names and what is asked beyond that.
    static func describeJSONAttributes(_ settings: JSONAttributesSettings) -> String {
        var notes: [String] = []
        if let names = settings.attributes {
            notes.append("names " + (names.isEmpty ? "none" : names.sorted().joined(separator: ", ")))
        }
        if settings.whenInvalid?.value == .keepLastGood {
            notes.append("keeps the last good version when invalid")
        }
        return "json: attributes in \(settings.path)"
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }

    /// A memory loader; a key breaking the resource identity rule (NFD) could never be loaded.
    static func makeMemory(
        _ settings: MemorySettings, _ context: PluginContext
    ) throws -> any ResourceLoading<String, Data> {
        for key in settings.resources.keys.sorted() {
            if let violation = ResourceIdentity.path.violation(in: key) {
                throw ConfigurationError(
                    path: "resources[\(key.debugDescription)]",
                    message: "the key \(violation); no request could name it")
            }
        }
        return MemoryLoader(settings.resources.mapValues { Data($0.utf8) })
    }

    static func makeFile(_ settings: FileSettings, _ context: PluginContext) throws -> any AccessPolicy {
        guard !settings.path.isEmpty else {
            throw ConfigurationError(path: "path", message: "must not be empty")
        }
        return FilePolicy(
            url: context.resolve(settings.path), requireEnd: settings.requireEnd ?? false,
            whenInvalid: settings.whenInvalid?.value ?? .deny, attributes: context.build.declaredAttributes,
            invariants: context.build.invariants)
    }

    /// `file: rules in avatars.rules`, with what is asked of the file beyond that.
    static func describeFile(_ settings: FileSettings) -> String {
        var notes: [String] = []
        if settings.requireEnd == true { notes.append("must end with an end line") }
        if settings.whenInvalid?.value == .keepLastGood {
            notes.append("keeps the last good version when invalid")
        }
        return "file: rules in \(settings.path)"
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }

    static func makeCombinator(
        _ type: String, _ settings: CombinatorSettings, _ context: PluginContext
    ) throws -> any AccessPolicy {
        guard !settings.gatekeepers.isEmpty else {
            throw ConfigurationError(
                path: settings.key, message: "empty; \(type) needs at least one gatekeeper")
        }
        let members = try context.members(settings.gatekeepers)
        return type == "allOf" ? AllOf(named: members) : AnyOf(named: members)
    }

    static func makeDisk(_ settings: DiskSettings, _ context: PluginContext) throws
        -> any ResourceLoading<String, Data>
    {
        var errors = ConfigurationError(issues: [])
        if settings.root.isEmpty { errors.add("root", "must not be empty") }
        if let limit = settings.maximumFileSize, limit <= 0 {
            errors.add("maximumFileSize", "expected a positive number of bytes, found \(limit)")
        }
        try errors.throwIfAny()
        let root = context.resolve(settings.root)
        return settings.maximumFileSize.map { DiskLoader(root: root, maximumFileSize: $0) }
            ?? DiskLoader(root: root)
    }

    static func makeAllowList(_ settings: AllowListSettings, _ context: PluginContext) throws
        -> any AccessPolicy
    {
        guard settings.resources != nil || settings.subjects != nil else {
            throw ConfigurationError(
                path: "resources", message: "missing; give \"resources\", \"subjects\" or both")
        }
        var errors = ConfigurationError(issues: [])
        for (key, list) in [("resources", settings.resources), ("subjects", settings.subjects)] {
            guard let list else { continue }
            if list.isEmpty {
                errors.add(key, "empty; an empty list would deny everything (use alwaysDeny if you mean it)")
            }
            for (index, pattern) in list.enumerated() where pattern.isEmpty {
                errors.add("\(key)[\(index)]", "an empty pattern matches nothing")
            }
        }
        try errors.throwIfAny()
        return try AllowList(resources: settings.resources, subjects: settings.subjects)
    }

    static func describeAllowList(_ settings: AllowListSettings) -> String {
        let lists = [("resources", settings.resources), ("subjects", settings.subjects)]
        let parts = lists.compactMap { key, list in list.map { "\(key) \($0.joined(separator: ", "))" } }
        return "allowList: " + parts.joined(separator: "; ")
    }

    static func makeTimeWindow(_ settings: TimeWindowSettings, _ context: PluginContext) throws
        -> any AccessPolicy
    {
        guard !settings.days.isEmpty else {
            throw ConfigurationError(
                path: "days", message: "empty; list at least one day (\"mon\" … \"sun\")")
        }
        let (from, to) = (settings.from.value, settings.to.value)
        guard from != to else {
            throw ConfigurationError(
                path: "to", message: "equals from (\(from)); a window needs a start and a different end")
        }
        return try TimeWindow(
            days: Set(settings.days.map(\.value)), from: from, to: to, timeZone: settings.timeZone.text,
            now: context.clock)
    }

    static func describeTimeWindow(_ settings: TimeWindowSettings) -> String {
        let days = Set(settings.days.map(\.value))
        return
            "timeWindow: \(Weekday.summary(of: days)) \(settings.from.text)–\(settings.to.text) \(settings.timeZone.text)"
    }
}

/// A string setting checked as it is decoded, so that a bad one is reported with the others.
struct Checked<Rule: SettingRule>: Decodable, Sendable, SettingPlaceholder {
    /// The text as written.
    var text: String
    var value: Rule.Value

    static var placeholder: Checked { Checked(text: "", value: Rule.placeholder) }
}

extension Checked {
    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Rule.value(of: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: Rule.problem(with: text)))
        }
        self.value = value
    }
}

/// What a ``Checked`` setting accepts.
protocol SettingRule {
    associatedtype Value: Sendable
    static var placeholder: Value { get }
    /// The value `text` names, or `nil`.
    static func value(of text: String) -> Value?
    /// Why `text` names no value, and what was expected.
    static func problem(with text: String) -> String
}

/// A time zone TimeWindow accepts.
enum TimeZoneRule: SettingRule {
    static let placeholder = "UTC"
    static func value(of text: String) -> String? { TimeWindowZone.zone(text) == nil ? nil : text }
    static func problem(with text: String) -> String { TimeWindowZone.problem(with: text) }
}

/// `mon` … `sun`.
enum WeekdayRule: SettingRule {
    static let placeholder = Weekday.mon
    static func value(of text: String) -> Weekday? { Weekday(rawValue: text) }
    static func problem(with text: String) -> String {
        "expected one of mon, tue, wed, thu, fri, sat, sun, found \"\(text)\""
    }
}

/// `HH:mm`.
enum LocalTimeRule: SettingRule {
    static var placeholder: LocalTime { (try? LocalTime("00:00"))! }
    static func value(of text: String) -> LocalTime? { try? LocalTime(text) }
    static func problem(with text: String) -> String {
        do {
            _ = try LocalTime(text)
            return "expected HH:mm"
        } catch {
            return error.message
        }
    }
}

/// `"deny"` (the default) or `"keepLastGood"`.
enum WhenInvalidRule: SettingRule {
    static let placeholder = FilePolicy.WhenInvalid.deny
    static func value(of text: String) -> FilePolicy.WhenInvalid? {
        ["deny": .deny, "keepLastGood": .keepLastGood][text]
    }
    static func problem(with text: String) -> String {
        let hint =
            closestName(to: text, among: ["keepLastGood"], within: 3).map { "; did you mean \"\($0)\"?" }
            ?? ""
        return "unknown value \"\(text)\"; expected \"deny\" or \"keepLastGood\"\(hint)"
    }
}
