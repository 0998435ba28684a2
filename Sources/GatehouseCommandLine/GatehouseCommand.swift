import Foundation
import GatehouseComposition

/// The `gatehouse` command as a value an app's executable runs, every configuration assembled with
/// its ``registry``; docs/cli.md ("Shipping the command with your own plugins") shows a `main`.
public struct GatehouseCommand: Sendable {
    /// The version of the Gatehouse package, as `gatehouse --version` prints it.
    public static let version = "3.0.0"

    /// The component types every configuration the command reads may name.
    public var registry: PluginRegistry

    /// Where it writes; a test passes its own to the memberwise `init(registry:console:)`.
    let console: Console

    /// Runs the command on `arguments` (without the program name); returns its exit status (docs/cli.md).
    public func run(_ arguments: [String]) async -> Int32 {
        await Commands(console: console, registry: registry).run(arguments).rawValue
    }

    /// Runs the command on the process's arguments and exits the process with its exit status.
    public static func main(registry: PluginRegistry = PluginRegistry()) async -> Never {
        let status = await GatehouseCommand(registry: registry).run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}

extension GatehouseCommand {
    /// A command whose configurations may name the types of `registry` (by default the built-in ones).
    public init(registry: PluginRegistry = PluginRegistry()) {
        self.init(registry: registry, console: .standard)
    }
}
