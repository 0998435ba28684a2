import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies

/// `gatehouse validate`: every problem of a configuration and its rules files, or of a rules file.
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
        A valid rules file is counted in rules and groups, with the attributes it reads when its
        service declares none: docs.rules: 12 rules, 2 groups; reads attributes device, tenant

        Exit status: 0 valid, 1 invalid, 2 usage error.
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let (path, json) = (arguments.positionals[0], arguments.flag("json"))
        if path.hasSuffix(".rules") { return rulesFile(path, json: json, commands) }
        guard let services = commands.assemble(path, json: json) else { return .error }
        let progress = commands.console.progress("validating \(printable(path))")
        let files: [AssembledServices.CheckedRulesFile]
        do {
            defer { progress.finish() }
            files = try await services.validate { done, total in
                progress.update("validating \(printable(path)): gatekeeper \(done + 1) of \(total)")
            }
        } catch {
            return commands.configurationFailed(error, file: path, json: json)
        }
        let names = services.services.map(\.name)
        let (rules, groups) = files.reduce((0, 0)) { ($0.0 + $1.rules, $0.1 + $1.groups) }
        let reading = files.filter { !$0.attributes.isEmpty }
        if json {
            let reads = reading.map {
                JSONText.object([
                    ("place", .string($0.place)), ("file", .string($0.file)),
                    ("attributes", .array($0.attributes.map { .string($0) })),
                ])
            }
            commands.console.out(
                JSONText.object([
                    ("file", .string(path)), ("valid", .bool(true)),
                    ("services", .array(names.map { .string($0) })), ("rules", .number(rules)),
                    ("groups", .number(groups)), ("reads", reads.isEmpty ? nil : .array(reads)),
                ]).text)
        } else {
            let counted = summary(rules: rules, groups: groups, attributes: [])
            commands.console.out(
                "\(printable(path)): valid; \(count(names.count, "service")), \(counted): "
                    + names.map(printable).joined(separator: ", "))
            for file in reading {
                commands.console.out(
                    "\(printable(file.place)): \(printable(file.file)): "
                        + summary(rules: file.rules, groups: file.groups, attributes: file.attributes))
            }
        }
        return .ok
    }

    static func rulesFile(_ path: String, json: Bool, _ commands: Commands) -> ExitStatus {
        let counts: (rules: Int, groups: Int, attributes: [String])
        let progress = commands.console.progress("validating \(printable(path))")
        do {
            defer { progress.finish() }
            counts = try FilePolicy(url: URL(fileURLWithPath: path)).validationCounts()
        } catch {
            let problems = (error as? RulesFileError)?.problemDescriptions ?? [describe(error)]
            return commands.problems(problems, file: path, json: json, status: .error)
        }
        if json {
            commands.console.out(
                JSONText.object([
                    ("file", .string(path)), ("valid", .bool(true)), ("rules", .number(counts.rules)),
                    ("groups", .number(counts.groups)),
                    (
                        "attributes",
                        counts.attributes.isEmpty ? nil : .array(counts.attributes.map { .string($0) })
                    ),
                ]).text)
        } else {
            commands.console.out(
                "\(printable(path)): valid; "
                    + summary(rules: counts.rules, groups: counts.groups, attributes: counts.attributes))
        }
        return .ok
    }

    /// `12 rules, 2 groups; reads attributes device, tenant`.
    static func summary(rules: Int, groups: Int, attributes: [String]) -> String {
        "\(count(rules, "rule")), \(count(groups, "group"))"
            + (attributes.isEmpty
                ? "" : "; reads attributes " + attributes.map(printable).joined(separator: ", "))
    }

    /// `1 rule`, `200,000 rules`.
    static func count(_ number: Int, _ noun: String) -> String {
        var digits = String(number)
        for index in stride(from: digits.count - 3, to: 0, by: -3) {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
        }
        return "\(digits) \(noun)\(number == 1 ? "" : "s")"
    }
}

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
