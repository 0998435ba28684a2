import Foundation
import GatehouseComposition
import GatehouseCore

/// What every subcommand runs with (console, component types), and the messages they share.
struct Commands {
    let console: Console
    let registry: PluginRegistry
    /// How a shell reaches the program, for the commands the demo prints.
    var program = "gatehouse"

    /// Runs `arguments` (without the program name); none runs the demo.
    func run(_ arguments: [String]) async -> ExitStatus {
        guard let word = arguments.first else { return await run([Demo.name]) }
        let aliases = ["--help": Help.name, "-h": Help.name, "--version": Version.name]
        guard let command = Self.subcommand(named: aliases[word] ?? word) else {
            let hint = CommandLineArguments.hint(word, among: Self.all.map { $0.name })
            return usage(
                "unknown command '\(word)'\(hint); commands are \(Self.names)",
                usage: Self.usageLines.joined(separator: "\n"))
        }
        let rest = Array(arguments.dropFirst())
        // `--help` anywhere before `--` wins over every other mistake.
        if rest.prefix(while: { $0 != "--" }).contains("--help") { return help(command.help) }
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments(
                rest, options: command.options, positionalNames: command.positionals, command: command.name)
        } catch {
            return usage(error.message, usage: "Usage: " + command.synopsis)
        }
        return await command.run(parsed, self)
    }

    func help(_ text: String) -> ExitStatus {
        console.out(text)
        return .ok
    }

    /// A usage error: the message, the usage line(s) when given, and where to find more.
    func usage(_ message: String, usage: String? = nil, json: Bool = false) -> ExitStatus {
        if json {
            console.out(JSONText.object([("error", .string(message)), ("usage", .bool(true))]).text)
            return .usage
        }
        console.err("error: \(printable(message))")
        if let usage { console.err(usage) }
        console.err("Run 'gatehouse help' or add --help for more.")
        return .usage
    }

    /// A configuration that cannot be used: every problem after the file's path; exit status 1.
    func configurationFailed(_ error: any Error, file: String, json: Bool) -> ExitStatus {
        let issues = (error as? ConfigurationError)?.issues.map(\.description) ?? [describe(error)]
        return problems(issues, file: file, json: json, status: .error)
    }

    /// Prints `problems` of `file`, each after its path, or as JSON (`command`, `file`, `valid`, `errors`).
    func problems(
        _ problems: [String], file: String, json: Bool, status: ExitStatus, command: String? = nil
    ) -> ExitStatus {
        if json {
            console.out(
                JSONText.object([
                    ("command", command.map { .string($0) }), ("file", .string(file)),
                    ("valid", .bool(false)),
                    ("errors", .array(problems.map { .string($0) })),
                ]).text)
        } else {
            for problem in problems { console.err("\(printable(file)): \(printable(problem))") }
        }
        return status
    }

    /// The configuration at `path` assembled, or `nil` once the problems are reported.
    /// `seen` receives every record, so that the command shows requests as they were decided.
    func assemble(
        _ path: String, clock: @escaping @Sendable () -> Date = { Date() }, decisionLog: String? = nil,
        seen: SeenRequests? = nil, json: Bool
    ) -> AssembledServices? {
        let assembler = Assembler(
            registry: registry, clock: clock, observer: seen,
            decisionLogFile: decisionLog.map { URL(fileURLWithPath: $0) })
        do {
            return try assembler.assemble(contentsOf: URL(fileURLWithPath: path))
        } catch {
            _ = configurationFailed(error, file: path, json: json)
            return nil
        }
    }

    /// Closes the decision log after the shadow answers (off the caller's path) are in, so that
    /// every decision is written before the process exits; a write error is only a warning.
    func closeDecisionLog(of services: AssembledServices) async {
        guard let log = services.decisionLog else { return }
        for service in services.services { await service.gate.waitForShadowAnswers() }
        await log.close()
        if let error = log.lastError {
            console.err("warning: decision log: \(printable(error.message)) (\(log.lostCount) lost)")
        }
    }
}
