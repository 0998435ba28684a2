import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies

/// `gatehouse describe` (formerly `explain`, still accepted): each service's gatekeepers in
/// order, the cache and the loader.
enum Describe: Subcommand {
    static let name = "describe"
    static let abstract =
        "describe each service of a configuration: its gatekeepers in order, the cache, the loader"
    static let options = [RequestOptions.json]
    static let positionals = ["FILE"]
    static let discussion = """
        'gatehouse explain' is an older name of this command and does the same.
        Exit status: 0 ok, 1 invalid configuration, 2 usage error.
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let (path, json) = (arguments.positionals[0], arguments.flag("json"))
        guard let services = commands.assemble(path, json: json) else { return .error }
        if json {
            let described = services.services.map {
                JSONText.object([
                    ("name", .string($0.name)), ("lines", .array($0.description.map { .string($0) })),
                ])
            }
            commands.console.out(
                JSONText.object([("file", .string(path)), ("services", .array(described))]).text)
        } else {
            commands.console.out(
                services.services.map { $0.description.map(printable).joined(separator: "\n") }
                    .joined(separator: "\n\n"))
        }
        return .ok
    }
}
