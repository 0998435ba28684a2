import Foundation
import GatehouseCore

/// The component types a configuration may name, each with its `Decodable` settings type and a
/// factory. The built-ins are registered from the start: loaders `disk`, `memory`; policies
/// `alwaysDeny`, `alwaysAllow`, `allowList`, `timeWindow`, `file`, `remote`, `allOf`, `anyOf`,
/// `not`; attribute source `json`.
///
/// ```swift
/// /// Allows requests whose `tenant` attribute is this tenant.
/// struct TenantPolicy: AccessPolicy {
///     let name = "tenant"
///     let tenant: String
///     func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
///         request.attributes["tenant"] == tenant ? .allow : .deny(reason: "not tenant \(tenant)")
///     }
/// }
/// struct TenantSettings: Decodable { var tenant: String }
///
/// var registry = PluginRegistry()
/// try registry.registerGatekeeper("tenant", settings: TenantSettings.self) { settings, context in
///     TenantPolicy(tenant: settings.tenant)
/// }
/// ```
public struct PluginRegistry: Sendable {
    /// Builds a policy from a component's settings: decodes, then calls the factory.
    struct PolicyPlugin: Sendable {
        let build:
            @Sendable (JSONValue, PluginContext, inout [SettingsDecoder.UnknownKey]) throws ->
                any AccessPolicy
        let describe: @Sendable (JSONValue) -> String?
    }

    /// Builds a loader from a component's settings: decodes, then calls the factory.
    struct LoaderPlugin: Sendable {
        let build:
            @Sendable (JSONValue, PluginContext, inout [SettingsDecoder.UnknownKey]) throws ->
                any ResourceLoading<
                    String, Data
                >
        let describe: @Sendable (JSONValue) -> String?
    }

    /// Builds an attribute source from a component's settings: decodes, then calls the factory.
    struct AttributeSourcePlugin: Sendable {
        let build:
            @Sendable (JSONValue, PluginContext, inout [SettingsDecoder.UnknownKey]) throws ->
                any AttributeSource
        let describe: @Sendable (JSONValue) -> String?
    }

    private(set) var policies: [String: PolicyPlugin] = [:]
    private(set) var loaders: [String: LoaderPlugin] = [:]
    private(set) var attributeSources: [String: AttributeSourcePlugin] = [:]

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

    /// Registers a gatekeeper type.
    ///
    /// - Parameters:
    ///   - type: The name used in `"type"`; must not be taken already.
    ///   - settings: The settings type, decoded from the component's other keys. A key the
    ///     settings type does not read is reported as unknown.
    ///   - describe: One line for `explain`, from the settings; by default the settings as JSON.
    ///   - factory: Builds the gatekeeper. Throw ``SettingsError`` to point at one setting.
    /// - Throws: ``PluginRegistrationError`` when the name is taken or empty.
    public mutating func registerGatekeeper<Settings: Decodable & Sendable>(
        _ type: String,
        settings: Settings.Type,
        describe: (@Sendable (Settings) -> String)? = nil,
        factory: @escaping @Sendable (Settings, PluginContext) throws -> any AccessPolicy
    ) throws {
        try Self.checkName(type, taken: policies[type] != nil, kind: "policy")
        policies[type] = PolicyPlugin(
            build: { value, context, unread in
                let decoder = SettingsDecoder()
                defer { unread = decoder.unknownKeys }
                let settings = try decoder.decode(Settings.self, from: value, ignoring: ["name"])
                return try factory(settings, context)
            },
            describe: { value in
                guard let describe,
                    let settings = try? SettingsDecoder().decode(
                        Settings.self, from: value, ignoring: ["name"])
                else { return nil }
                return describe(settings)
            })
    }

    /// Registers a loader type whose resources are `Data` named by `String` keys.
    ///
    /// - Throws: ``PluginRegistrationError`` when the name is taken or empty.
    public mutating func registerLoader<Settings: Decodable & Sendable>(
        _ type: String,
        settings: Settings.Type,
        describe: (@Sendable (Settings) -> String)? = nil,
        factory: @escaping @Sendable (Settings, PluginContext) throws -> any ResourceLoading<String, Data>
    ) throws {
        try Self.checkName(type, taken: loaders[type] != nil, kind: "loader")
        loaders[type] = LoaderPlugin(
            build: { value, context, unread in
                let decoder = SettingsDecoder()
                defer { unread = decoder.unknownKeys }
                let settings = try decoder.decode(Settings.self, from: value, ignoring: [])
                return try factory(settings, context)
            },
            describe: { value in
                guard let describe,
                    let settings = try? SettingsDecoder().decode(Settings.self, from: value, ignoring: [])
                else { return nil }
                return describe(settings)
            })
    }

    /// Registers an attribute source type, named by a service's `"resourceAttributes"`.
    ///
    /// ```swift
    /// struct OwnersSettings: Decodable { var table: String }
    /// try registry.registerAttributeSource("owners", settings: OwnersSettings.self) { settings, _ in
    ///     OwnersTable(name: settings.table)   // an AttributeSource
    /// }
    /// ```
    ///
    /// - Throws: ``PluginRegistrationError`` when the name is taken or empty.
    public mutating func registerAttributeSource<Settings: Decodable & Sendable>(
        _ type: String,
        settings: Settings.Type,
        describe: (@Sendable (Settings) -> String)? = nil,
        factory: @escaping @Sendable (Settings, PluginContext) throws -> any AttributeSource
    ) throws {
        try Self.checkName(type, taken: attributeSources[type] != nil, kind: "attribute source")
        attributeSources[type] = AttributeSourcePlugin(
            build: { value, context, unread in
                let decoder = SettingsDecoder()
                defer { unread = decoder.unknownKeys }
                let settings = try decoder.decode(Settings.self, from: value, ignoring: [])
                return try factory(settings, context)
            },
            describe: { value in
                guard let describe,
                    let settings = try? SettingsDecoder().decode(Settings.self, from: value, ignoring: [])
                else { return nil }
                return describe(settings)
            })
    }

    private static func checkName(_ type: String, taken: Bool, kind: String) throws {
        guard !type.isEmpty else {
            throw PluginRegistrationError(message: "a \(kind) type name must not be empty")
        }
        guard !taken else {
            throw PluginRegistrationError(
                message: "the \(kind) type \"\(type)\" is already registered; choose another name")
        }
    }
}

/// Thrown when a plugin cannot be registered.
public struct PluginRegistrationError: Error, Sendable, Hashable, LocalizedError {
    /// What was wrong.
    public var message: String

    /// Creates the error.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var errorDescription: String? { message }
}
