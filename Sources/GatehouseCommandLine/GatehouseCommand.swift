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

    /// How a shell reaches this program, as the demo prints its commands: `gatehouse` when found
    /// on `PATH`, else the path it was started by (``invocation(of:workingDirectory:)``).
    var program = "gatehouse"

    /// Runs the command on `arguments` (without the program name); returns its exit status (docs/cli.md).
    public func run(_ arguments: [String]) async -> Int32 {
        await Commands(console: console, registry: registry, program: program).run(arguments).rawValue
    }

    /// Runs the command on the process's arguments and exits the process with its exit status.
    public static func main(registry: PluginRegistry = .command) async -> Never {
        var command = GatehouseCommand(registry: registry)
        command.program = invocation(
            of: CommandLine.arguments.first ?? "gatehouse",
            workingDirectory: FileManager.default.currentDirectoryPath)
        exit(await command.run(Array(CommandLine.arguments.dropFirst())))
    }

    /// How to type the program started as `argument0` so that it runs from `workingDirectory`: a
    /// bare name (found on `PATH`) as it is; a path below the working directory relative to it
    /// (`.build/debug/gatehouse` after `swift run`), any other path whole.
    static func invocation(of argument0: String, workingDirectory: String) -> String {
        guard argument0.contains("/") else { return argument0 }
        let path = URL(
            fileURLWithPath: argument0, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true)
        )
        .standardizedFileURL.path
        let here = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        guard path.hasPrefix(here) else { return path }
        let relative = String(path.dropFirst(here.count))
        return relative.contains("/") ? relative : "./" + relative
    }
}

extension GatehouseCommand {
    /// A command whose configurations may name the types of `registry` (by default the built-in
    /// ones and `sqlite`, `PluginRegistry.command`).
    public init(registry: PluginRegistry = .command) {
        self.init(registry: registry, console: .standard)
    }
}
