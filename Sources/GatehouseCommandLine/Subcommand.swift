/// One subcommand of `gatehouse`: help and usage are made from it; ``Commands/all`` lists it.
protocol Subcommand: Sendable {
    /// The word that runs it: `check` in `gatehouse check`.
    static var name: String { get }
    /// What it does, in one line.
    static var abstract: String { get }
    /// The options it accepts, in the order the usage line shows them.
    static var options: [CommandLineArguments.Option] { get }
    /// Its positional arguments (`KEY`); an optional one in brackets (`[COMMAND]`).
    static var positionals: [String] { get }
    /// The rest of its help: details, exit statuses, an example.
    static var discussion: String { get }

    /// Runs it on arguments already parsed against ``options`` and ``positionals``.
    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus
}

extension Subcommand {
    static var positionals: [String] { [] }
    static var options: [CommandLineArguments.Option] { [] }
    static var discussion: String { "" }

    /// `gatehouse check --config FILE [--service NAME] ... KEY`.
    static var synopsis: String {
        (["gatehouse", name] + options.filter { $0.refusal == nil }.map(\.synopsis) + positionals)
            .joined(separator: " ")
    }

    /// The text `gatehouse help NAME` and `gatehouse NAME --help` print.
    static var help: String {
        let options = self.options.filter { $0.refusal == nil }.map(\.helpLine)
        return "gatehouse \(name) - \(abstract)\n\nUsage: \(synopsis)"
            + (options.isEmpty ? "" : "\n\nOptions:\n" + options.joined(separator: "\n"))
            + (discussion.isEmpty ? "" : "\n\n" + discussion)
    }
}

extension Commands {
    /// Every subcommand, in the order help lists them.
    static let all: [any Subcommand.Type] = [
        Check.self, Load.self, Store.self, Remove.self, List.self, Validate.self, Describe.self,
        TestCommand.self, Plan.self, Diff.self, Demo.self, Help.self, Version.self,
    ]

    /// Older names of subcommands, still accepted: `explain` is `describe`.
    static let formerNames = ["explain": Describe.name]

    /// The subcommand `name` runs, by its name or a former one.
    static func subcommand(named name: String) -> (any Subcommand.Type)? {
        let current = formerNames[name] ?? name
        return all.first { $0.name == current }
    }

    /// `check, load, ..., version`, for messages.
    static var names: String { all.map { $0.name }.joined(separator: ", ") }

    static var usageLines: [String] { all.map { $0.synopsis } }

    /// What `gatehouse help` prints.
    static var overview: String {
        """
        gatehouse - ask a configured gate whether a request may pass, and load through it

        Usage:
        \(usageLines.map { "  " + $0 }.joined(separator: "\n"))
          gatehouse                   (no arguments) the demo, on the bundled example configuration

        Exit status: 0 allowed / ok, 1 error, 2 usage, 3 denied (test: 1 when a case fails).
        Results go to standard output; errors and denials to standard error; --json prints one
        JSON object to standard output instead. 'gatehouse help COMMAND' describes a command.
        """
    }
}
