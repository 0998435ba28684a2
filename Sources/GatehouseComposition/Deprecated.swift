import GatehouseCore

// Names kept for code written against earlier editions.

extension PluginRegistry {
    /// Registers a gatekeeper type.
    @available(*, deprecated, renamed: "registerGatekeeper(_:settings:describe:factory:)")
    public mutating func registerPolicy<Settings: Decodable & Sendable>(
        _ type: String,
        settings: Settings.Type,
        describe: (@Sendable (Settings) -> String)? = nil,
        factory: @escaping @Sendable (Settings, PluginContext) throws -> any AccessPolicy
    ) throws {
        try registerGatekeeper(type, settings: settings, describe: describe, factory: factory)
    }

    /// The registered gatekeeper type names, sorted.
    @available(*, deprecated, renamed: "gatekeeperTypes")
    public var policyTypes: [String] { gatekeeperTypes }
}
