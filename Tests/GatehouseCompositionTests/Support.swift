import Foundation
import GatehouseComposition
import GatehouseCore

/// Assembles `json` with `baseDirectory` the temporary directory and returns the issues as text.
func issues(_ json: String, registry: PluginRegistry = PluginRegistry()) -> [String] {
    do {
        _ = try Assembler(registry: registry).assemble(
            json: Data(json.utf8), baseDirectory: FileManager.default.temporaryDirectory)
        return []
    } catch let error as ConfigurationError {
        return error.issues.map(\.description)
    } catch {
        return ["unexpected error: \(error)"]
    }
}

/// A one-service configuration with the given gatekeepers (JSON array text) and a memory loader.
func service(gatekeepers: String, extra: String = "") -> String {
    """
    { "services": { "s": {
        "loader": { "type": "memory", "resources": { "a": "A" } }\(extra),
        "gatekeepers": \(gatekeepers) } } }
    """
}
