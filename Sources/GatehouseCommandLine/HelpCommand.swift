/// `gatehouse help [COMMAND]`, also `gatehouse --help`: the overview, or one command's help.
enum Help: Subcommand {
    static let name = "help"
    static let abstract = "describe the commands, or one of them (also: --help on every command)"
    static let positionals = ["[COMMAND]"]

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        guard let topic = arguments.positionals.first else { return commands.help(Commands.overview) }
        guard let command = Commands.subcommand(named: topic) else {
            let hint = CommandLineArguments.hint(topic, among: Commands.all.map { $0.name })
            return commands.usage(
                "no command '\(topic)'\(hint); commands are \(Commands.names)", usage: "Usage: " + synopsis)
        }
        return commands.help(command.help)
    }
}

/// `gatehouse version`, also `gatehouse --version`.
enum Version: Subcommand {
    static let name = "version"
    static let abstract = "print the version of Gatehouse (also: --version)"

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        commands.console.out("gatehouse \(GatehouseCommand.version)")
        return .ok
    }
}
