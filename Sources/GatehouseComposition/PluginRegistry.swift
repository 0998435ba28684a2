import Foundation
import GatehouseCore

/// The component types a configuration may name, each with its `Decodable` settings type and a
/// factory; the built-ins are registered from the start (docs/configuration.md, "Your own types").
public struct PluginRegistry: Sendable {
    /// Reads a component's settings and builds it, with its line of `describe` when the type
    /// gives one.
    struct Plugin<Component>: Sendable {
        /// What building found: the settings' unknown keys, and the component or why not.
        typealias Outcome = (
            unknownKeys: [ConfigurationDecoder.Issue],
            built: Result<(built: Component, text: String?), any Error>
        )

        let build: @Sendable (JSONValue, PluginContext) -> Outcome

        /// `ignoring`: keys of the component's own that the settings type does not read.
        init<Settings: Decodable & Sendable>(
            _ settings: Settings.Type, ignoring: Set<String> = [],
            describe: (@Sendable (Settings) -> String)?,
            factory: @escaping @Sendable (Settings, PluginContext) throws -> Component
        ) {
            build = { value, context in
                let read = ConfigurationDecoder.decode(Settings.self, from: value, ignoring: ignoring)
                guard read.problems.isEmpty, let settings = read.value else {
                    let error = read.problems.isEmpty ? read.error : nil
                    return (
                        read.unknownKeys,
                        .failure(error ?? ConfigurationDecoder.Problems(issues: read.problems))
                    )
                }
                return (read.unknownKeys, Result { (try factory(settings, context), describe?(settings)) })
            }
        }
    }

    private(set) var policies: [String: Plugin<any AccessPolicy>] = [:]
    private(set) var loaders: [String: Plugin<any ResourceLoading<String, Data>>] = [:]
    private(set) var attributeSources: [String: Plugin<any AttributeSource>] = [:]

    /// A registry with the built-in types registered.
    public init() {
        BuiltInPlugins.register(in: &self)
    }

    /// A registry with no types at all, for an app that wants to offer only its own.
    public static var empty: PluginRegistry {
        PluginRegistry(nothing: ())
    }

    private init(nothing: Void) {}

    /// The registered policy type names, sorted.
    public var gatekeeperTypes: [String] { policies.keys.sorted() }
    /// The registered loader type names, sorted.
    public var loaderTypes: [String] { loaders.keys.sorted() }
    /// The registered attribute source type names, sorted.
    public var attributeSourceTypes: [String] { attributeSources.keys.sorted() }

    /// Registers a gatekeeper type: `settings` is decoded from the component's other keys (a key
    /// it does not read is reported as unknown), `describe` gives its line of `describe`, and
    /// `factory` builds it, throwing ``ConfigurationError`` to point at its settings. Throws a
    /// ``ConfigurationError`` when the name is taken or empty.
    public mutating func registerGatekeeper<Settings: Decodable & Sendable>(
        _ type: String,
        settings: Settings.Type,
        describe: (@Sendable (Settings) -> String)? = nil,
        factory: @escaping @Sendable (Settings, PluginContext) throws -> any AccessPolicy
    ) throws {
        let plugin = Plugin(settings, ignoring: ["name"], describe: describe, factory: factory)
        try Self.add(plugin, as: type, kind: "policy", to: &policies)
    }

    /// Registers a loader type whose resources are `Data` named by `String` keys, as
    /// ``registerGatekeeper(_:settings:describe:factory:)`` does.
    public mutating func registerLoader<Settings: Decodable & Sendable>(
        _ type: String,
        settings: Settings.Type,
        describe: (@Sendable (Settings) -> String)? = nil,
        factory: @escaping @Sendable (Settings, PluginContext) throws -> any ResourceLoading<String, Data>
    ) throws {
        try Self.add(
            Plugin(settings, describe: describe, factory: factory), as: type, kind: "loader", to: &loaders)
    }

    /// Registers an attribute source type, named by a service's `"resourceAttributes"`, as
    /// ``registerGatekeeper(_:settings:describe:factory:)`` does.
    public mutating func registerAttributeSource<Settings: Decodable & Sendable>(
        _ type: String,
        settings: Settings.Type,
        describe: (@Sendable (Settings) -> String)? = nil,
        factory: @escaping @Sendable (Settings, PluginContext) throws -> any AttributeSource
    ) throws {
        let plugin = Plugin(settings, describe: describe, factory: factory)
        try Self.add(plugin, as: type, kind: "attribute source", to: &attributeSources)
    }

    private static func add<Component>(
        _ plugin: Plugin<Component>, as type: String, kind: String,
        to table: inout [String: Plugin<Component>]
    ) throws {
        guard !type.isEmpty else {
            throw ConfigurationError(message: "a \(kind) type name must not be empty")
        }
        guard table[type] == nil else {
            throw ConfigurationError(
                message: "the \(kind) type \"\(type)\" is already registered; choose another name")
        }
        table[type] = plugin
    }
}
