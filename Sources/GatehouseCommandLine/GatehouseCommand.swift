import Foundation
import GatehouseComposition

/// The `gatehouse` command as a value an app's own executable runs, with the app's plugin types:
/// every configuration it reads is assembled with ``registry``. docs/cli.md ("Shipping the
/// command with your own plugins") shows such a `main`.
public struct GatehouseCommand: Sendable {
    /// The version of the Gatehouse package, as `gatehouse --version` prints it.
    public static let version = "3.0.0"

    /// The component types every configuration the command reads may name.
    public var registry: PluginRegistry

    /// Where it writes; a test passes its own to the memberwise `init(registry:console:)`.
    let console: Console

    /// Runs the command on `arguments` (without the program name) and returns its exit status:
    /// 0 allowed or done, 1 error, 2 usage, 3 denied.
    public func run(_ arguments: [String]) async -> Int32 {
        await Commands(console: console, registry: registry).run(arguments).rawValue
    }

    /// Runs the command on the process's arguments (`CommandLine.arguments` without the program
    /// name) and exits the process with its exit status.
    public static func main(registry: PluginRegistry = PluginRegistry()) async -> Never {
        let status = await GatehouseCommand(registry: registry).run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}

extension GatehouseCommand {
    /// A command whose configurations may name the types of `registry` (by default the
    /// built-in types only), writing to standard output and standard error.
    public init(registry: PluginRegistry = PluginRegistry()) {
        self.init(registry: registry, console: .standard)
    }
}
