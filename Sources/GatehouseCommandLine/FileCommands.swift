import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies

/// `gatehouse validate`: every problem of a configuration and its rules files, or of one
/// rules file on its own.
enum Validate: Subcommand {
    static let name = "validate"
    static let abstract = "check a configuration, or a rules file, and report every problem with its place"
    static let options = [RequestOptions.json]
    static let positionals = ["FILE"]
    static let discussion = """
        A FILE ending in .rules is checked as a rules file on its own. A configuration is checked
        with every rules file it names (gatekeepers, shadow gatekeepers, inside allOf, anyOf and
        not); a problem in one is reported at its gatekeeper's place with the file and line:
        gatehouse.json: services.avatars.gatekeepers[2]: avatars.rules:3: ...

        Exit status: 0 valid, 1 invalid, 2 usage error.
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let (path, json) = (arguments.positionals[0], arguments.flag("json"))
        if path.hasSuffix(".rules") { return rulesFile(path, json: json, commands) }
        guard let services = commands.assemble(path, json: json) else { return .error }
        let progress = commands.console.progress("validating \(printable(path))")
        let counts: (rules: Int, groups: Int)
        do {
            counts = try await services.validate { done, total in
                progress.update("validating \(printable(path)): gatekeeper \(done + 1) of \(total)")
            }
            progress.finish()
        } catch {
            progress.finish()
            return commands.configurationFailed(error, file: path, json: json)
        }
        let names = services.services.map(\.name)
        if json {
            commands.console.out(
                JSONText.render([
                    ("file", .string(path)), ("valid", .bool(true)),
                    ("services", .array(names.map { .string($0) })), ("rules", .number(counts.rules)),
                    ("groups", .number(counts.groups)),
                ]))
        } else {
            commands.console.out(
                "\(printable(path)): valid; \(count(names.count, "service")), \(count(counts.rules, "rule")), "
                    + "\(count(counts.groups, "group")): "
                    + names.map(printable).joined(separator: ", "))
        }
        return .ok
    }

    /// Checks the rules file at `path` on its own: every problem, one per line, or the counts
    /// of its rules and groups.
    static func rulesFile(_ path: String, json: Bool, _ commands: Commands) -> ExitStatus {
        let counts: (rules: Int, groups: Int)
        let progress = commands.console.progress("validating \(printable(path))")
        do {
            counts = try FilePolicy(url: URL(fileURLWithPath: path)).validationCounts()
            progress.finish()
        } catch {
            progress.finish()
            let problems = (error as? RulesFileError)?.problemDescriptions ?? [describe(error)]
            return commands.problems(problems, file: path, json: json, status: .error)
        }
        if json {
            commands.console.out(
                JSONText.render([
                    ("file", .string(path)), ("valid", .bool(true)), ("rules", .number(counts.rules)),
                    ("groups", .number(counts.groups)),
                ]))
        } else {
            commands.console.out(
                "\(printable(path)): valid; \(count(counts.rules, "rule")), \(count(counts.groups, "group"))")
        }
        return .ok
    }

    /// `1 rule`, `200,000 rules`.
    static func count(_ number: Int, _ noun: String) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return "\(text) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// `gatehouse explain`: each service's gatekeepers in order, the cache and the loader.
enum Explain: Subcommand {
    static let name = "explain"
    static let abstract =
        "describe each service of a configuration: its gatekeepers in order, the cache, the loader"
    static let options = [RequestOptions.json]
    static let positionals = ["FILE"]
    static let discussion = "Exit status: 0 ok, 1 invalid configuration, 2 usage error."

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let (path, json) = (arguments.positionals[0], arguments.flag("json"))
        guard let services = commands.assemble(path, json: json) else { return .error }
        if json {
            let described = services.services.map {
                JSONText.object([
                    ("name", .string($0.name)), ("lines", .array($0.explanation.map { .string($0) })),
                ])
            }
            commands.console.out(JSONText.render([("file", .string(path)), ("services", .array(described))]))
        } else {
            commands.console.out(
                services.services.map { $0.explanation.map(printable).joined(separator: "\n") }
                    .joined(separator: "\n\n"))
        }
        return .ok
    }
}
