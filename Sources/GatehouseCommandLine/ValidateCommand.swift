import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies

/// `gatehouse validate`: every problem of a configuration and its rules files, or of a rules file.
enum Validate: Subcommand {
    static let name = "validate"
    static let abstract = "check a configuration, or a rules file, and report every problem with its place"
    static let options = [
        RequestOptions.json,
        CommandLineArguments.Option(
            name: "strict", help: "exit 1 when a rule never changes a decision (a warning otherwise)"),
        CommandLineArguments.Option(
            name: "invariants", valueName: "FILE",
            help: "for a rules file: the invariants it must keep (a configuration names its own)"),
    ]
    static let positionals = ["FILE"]
    static let discussion = """
        A FILE ending in .rules is checked as a rules file on its own. A configuration is checked
        with every rules file it names (gatekeepers, shadow gatekeepers, inside allOf, anyOf and
        not), and its decision log's path, in one run: every problem, in file order; a problem in
        a rules file is reported at its gatekeeper's place with the file and line:
        gatehouse.json: services.avatars.gatekeepers[2]: avatars.rules:3: ...
        validate creates, writes and opens for writing nothing: the decision log is not opened,
        only its folder checked (it exists, is a folder and may be written).
        A valid rules file is counted in rules and groups, with the attributes it reads when its
        service declares none: docs.rules: 12 rules, 2 groups; reads attributes device, tenant
        Then a warning for each rule whose removal changes no decision for any request, naming the
        rules that cover it: docs.rules:7: this rule never changes a decision: docs.rules:3 covers it
        (--json: "neverDecides": [{"rule": "docs.rules:7", "coveredBy": ["docs.rules:3"]}]).
        A rules file that breaks an invariant (a service's "invariants", or --invariants FILE for a
        rules file on its own) is invalid, with the invariant's line, a request that breaks it and
        the rule that allows it: docs.rules:4: breaks the invariant guard.invariants:2
        (never * read secrets/*): it allows subject "secrets", action "read", resource "secrets/x"
        (see docs/invariants.md).

        Exit status: 0 valid (warnings included), 1 invalid, or a warning with --strict, 2 usage error.
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let (path, json) = (arguments.positionals[0], arguments.flag("json"))
        let strict = arguments.flag("strict")
        if path.hasSuffix(".rules") {
            return rulesFile(
                path, json: json, strict: strict, invariants: arguments.value("invariants"), commands)
        }
        if arguments.value("invariants") != nil {
            return commands.usage(
                "--invariants is for a rules file on its own; a configuration names a service's invariants "
                    + "with \"invariants\"", json: json)
        }
        let progress = commands.console.progress("validating \(printable(path))")
        let (names, files): ([String], [AssembledServices.CheckedRulesFile])
        do {
            defer { progress.finish() }
            // One pass that writes nothing: assembling without opening the decision log, then
            // every rules file, all problems together in file order.
            (names, files) = try await Assembler(registry: commands.registry).validate(
                contentsOf: URL(fileURLWithPath: path)
            ) { done, total in
                progress.update("validating \(printable(path)): gatekeeper \(done + 1) of \(total)")
            }
        } catch {
            return commands.configurationFailed(error, file: path, json: json)
        }
        let (rules, groups) = files.reduce((0, 0)) { ($0.0 + $1.rules, $0.1 + $1.groups) }
        let reading = files.filter { !$0.attributes.isEmpty }
        let warnings = files.flatMap { file in
            file.neverDeciding.map { (place: file.place, file: file.file, rule: $0) }
        }
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
                    (
                        "neverDecides",
                        warnings.isEmpty
                            ? nil
                            : .array(
                                warnings.map { neverDecides($0.rule, fileName: $0.file, place: $0.place) })
                    ),
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
            for warning in warnings {
                commands.console.out(
                    "\(printable(warning.place)): "
                        + printable(RulesFile.warning(warning.rule, fileName: warning.file)))
            }
        }
        return strict && !warnings.isEmpty ? .error : .ok
    }

    /// `{"rule": "docs.rules:7", "coveredBy": ["docs.rules:3"]}`, with its place in a configuration.
    static func neverDecides(_ rule: RulesFile.NeverDeciding, fileName: String, place: String? = nil)
        -> JSONText
    {
        .object([
            ("place", place.map { .string($0) }), ("rule", .string("\(fileName):\(rule.line)")),
            ("coveredBy", .array(rule.coveredBy.map { .string("\(fileName):\($0)") })),
        ])
    }

    static func rulesFile(
        _ path: String, json: Bool, strict: Bool, invariants invariantsPath: String? = nil,
        _ commands: Commands
    ) -> ExitStatus {
        let counts: (rules: Int, groups: Int, attributes: [String], neverDeciding: [RulesFile.NeverDeciding])
        let progress = commands.console.progress("validating \(printable(path))")
        let fileName = URL(fileURLWithPath: path).lastPathComponent
        do {
            defer { progress.finish() }
            let invariants = try invariantsPath.map { try Invariants(contentsOf: URL(fileURLWithPath: $0)) }
            counts = try FilePolicy(url: URL(fileURLWithPath: path), invariants: invariants)
                .validationReport()
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
                    (
                        "neverDecides",
                        counts.neverDeciding.isEmpty
                            ? nil : .array(counts.neverDeciding.map { neverDecides($0, fileName: fileName) })
                    ),
                ]).text)
        } else {
            commands.console.out(
                "\(printable(path)): valid; "
                    + summary(rules: counts.rules, groups: counts.groups, attributes: counts.attributes))
            for rule in counts.neverDeciding {
                commands.console.out(printable(RulesFile.warning(rule, fileName: fileName)))
            }
        }
        return strict && !counts.neverDeciding.isEmpty ? .error : .ok
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
