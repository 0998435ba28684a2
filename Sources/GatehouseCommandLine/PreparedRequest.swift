import Foundation
import GatehouseComposition
import GatehouseCore

/// A request's arguments, parsed and assembled: the service, who asks, what about.
struct PreparedRequest {
    var commands: Commands
    var arguments: CommandLineArguments
    /// Every service of the configuration (and its decision log, if any).
    var services: AssembledServices
    var service: ConfiguredService
    /// The positional argument: a key, for `list` a folder, for `plan` empty.
    var key: String
    var instant: Date?
    /// The requests as the service's gate decided them.
    var seen: SeenRequests

    var json: Bool { arguments.flag("json") }

    /// The `--action`, `read` when not given.
    var action: String { arguments.value("action") ?? "read" }

    /// A report on `action` on `key`, its masked attribute values hidden.
    func report(_ command: String, action: String, key: String? = nil) -> Report {
        Report(
            command: command, service: service.name,
            request: service.request(for: key ?? self.key, action: action),
            mask: services.decisionLog?.mask ?? [])
    }
}
