import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies

/// `gatehouse diff`: every decision that changes from one version of a rules file to another.
enum Diff: Subcommand {
    static let name = "diff"
    static let abstract = "print every decision that changes between two versions of a rules file"
    static let positionals = ["OLD", "NEW"]
    static let options = [
        CommandLineArguments.Option(
            name: "service", valueName: "NAME",
            help: "OLD and NEW are configurations: compare this service's rules files, in order"),
        CommandLineArguments.Option(
            name: "subject", valueName: "NAME",
            help: "only this subject (default: each subject named, none, and any other)"),
        CommandLineArguments.Option(
            name: "action", valueName: "NAME",
            help: "only this action (default: each action named, and any other)"),
        RequestOptions.attr,
        CommandLineArguments.Option(
            name: "at", valueName: "INSTANT",
            help: "the instant of the requests (ISO-8601); rules files decide without a clock"),
        RequestOptions.json,
    ]
    static let discussion = """
        For each class of request (a subject named in either version, no subject, any other
        subject; an action named in either version, any other action; the attributes given with
        --attr, and each attribute the rules read and --attr does not give: absent, each value a
        condition names, and another value where a placeholder reads it), the resources the new version allows and the old one denies
        (gained) and the reverse (lost), exactly, as residuals in the plan's form; the rules of
        each version that match a changed request; and one example request:
        alice read: gained "docs/drafts/*"; lost nothing; before: none; after: new.rules:4
          example: alice read docs/drafts/x: denied before, allowed after
        --json prints {"changes": [{"subject": S, "action": A, "gained": R, "lost": R, "before":
        [...], "after": [...], "example": {...}}]}; "subject": null is any other subject (or, with
        "withoutSubject": true, requests without one), "action": null any other action.

        With --service, OLD and NEW are two configurations (gatehouse.json): the service's rules
        files (each "file" gatekeeper, in order) are compared pairwise. The service must have the
        same gatekeepers, by name, and the same number of rules files in both; otherwise the
        command says so and exits 2.

        Exit status: 0 no decision changes, 1 some do, 2 usage error or an invalid rules file.
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let json = arguments.flag("json")
        let attributes: [String: String]
        do {
            attributes = try RequestOptions.attributesAndInstant(arguments).attributes
        } catch {
            return commands.usage(error.message, usage: "Usage: " + synopsis, json: json)
        }
        let (oldPath, newPath) = (arguments.positionals[0], arguments.positionals[1])
        let pairs: [(old: FilePolicy, new: FilePolicy, oldPath: String, newPath: String)]
        if let service = arguments.value("service") {
            switch Self.rulesFiles(of: service, old: oldPath, new: newPath, commands, json: json) {
            case .success(let found): pairs = found
            case .failure(let status): return status.status
            }
        } else {
            pairs = [
                (
                    FilePolicy(url: URL(fileURLWithPath: oldPath)),
                    FilePolicy(url: URL(fileURLWithPath: newPath)),
                    oldPath, newPath
                )
            ]
        }
        var changes: [RulesDiff.Change] = []
        for pair in pairs {
            let diff: RulesDiff
            do {
                diff = try RulesDiff(old: pair.old, new: pair.new)
            } catch {
                let path = error.file == pair.old.url.lastPathComponent ? pair.oldPath : pair.newPath
                return commands.problems(error.problemDescriptions, file: path, json: json, status: .usage)
            }
            changes += diff.changes(
                subject: arguments.value("subject"),
                action: arguments.value("action").map { AccessAction(rawValue: $0) },
                attributes: attributes)
        }
        if json {
            commands.console.out(JSONText.object([("changes", .array(changes.map(Self.json)))]).text)
        } else if changes.isEmpty {
            commands.console.out(
                "\(printable(oldPath)) -> \(printable(newPath)): no decision changes")
        } else {
            for change in changes {
                commands.console.out(printable(Self.line(change)))
                commands.console.out(printable("  " + Self.exampleLine(change)))
            }
        }
        return changes.isEmpty ? .ok : .error
    }

    /// A status to exit with, as an error.
    struct Stop: Error {
        var status: ExitStatus
    }

    /// The rules files of `service` in the configurations `old` and `new`, paired in order; a
    /// usage error (said) when either cannot be assembled, lacks the service, or its gatekeepers
    /// differ in more than their rules files' contents.
    static func rulesFiles(
        of service: String, old: String, new: String, _ commands: Commands, json: Bool
    ) -> Result<[(old: FilePolicy, new: FilePolicy, oldPath: String, newPath: String)], Stop> {
        var found: [(names: [String], files: [AssembledServices.ChainedRulesFile])] = []
        for path in [old, new] {
            guard let assembled = commands.assemble(path, json: json) else {
                return .failure(Stop(status: .usage))
            }
            guard let configured = assembled.services.first(where: { $0.name == service }) else {
                return .failure(
                    Stop(
                        status: commands.usage(
                            "\(printable(path)) has no service \(printable(service))",
                            usage: "Usage: " + synopsis,
                            json: json)))
            }
            found.append((configured.gate.gatekeepers.map(\.name), assembled.rulesFiles(of: configured)))
        }
        let (before, after) = (found[0], found[1])
        guard before.names == after.names, before.files.map(\.place) == after.files.map(\.place) else {
            return .failure(
                Stop(
                    status: commands.usage(
                        "service \(printable(service)): the gatekeepers differ (\(before.names.joined(separator: ", ")) "
                            + "-> \(after.names.joined(separator: ", "))); diff compares the rules files of a "
                            + "service whose gatekeepers are otherwise the same: compare its rules files one by one",
                        usage: "Usage: " + synopsis, json: json)))
        }
        return .success(
            zip(before.files, after.files).map {
                ($0.policy, $1.policy, $0.policy.url.path, $1.policy.url.path)
            })
    }

    /// `alice read: gained "docs/*"; lost nothing; before: old.rules:3; after: new.rules:3`.
    static func line(_ change: RulesDiff.Change) -> String {
        let references = { (rules: [RuleReference]) in
            rules.isEmpty ? "none" : rules.map(\.description).joined(separator: ", ")
        }
        let attributes =
            change.attributes.isEmpty
            ? ""
            : " ("
                + change.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                    separator: ", ") + ")"
        return
            "\(subject(change)) \(action(change))\(attributes): gained \(change.gained); lost \(change.lost); "
            + "before: \(references(change.before)); after: \(references(change.after))"
    }

    /// `example: alice read docs/drafts/x: denied before, allowed after`.
    static func exampleLine(_ change: RulesDiff.Change) -> String {
        let example = change.example
        let was = change.exampleWasAllowed ? "allowed" : "denied"
        let now = change.exampleWasAllowed ? "denied" : "allowed"
        return "example: \(example.subject ?? "(no subject)") \(example.action.rawValue) "
            + "\(example.resource): \(was) before, \(now) after"
    }

    private static func subject(_ change: RulesDiff.Change) -> String {
        if let subject = change.subject { return subject }
        if change.withoutSubject { return "(no subject)" }
        return change.subjectMatches.isEmpty
            ? "(any other subject)"
            : "(any other subject matching \(change.subjectMatches.joined(separator: ", ")))"
    }

    private static func action(_ change: RulesDiff.Change) -> String {
        if let action = change.action { return action }
        return change.actionMatches.isEmpty
            ? "(any other action)"
            : "(any other action matching \(change.actionMatches.joined(separator: ", ")))"
    }

    /// One change as `--json` prints it.
    static func json(_ change: RulesDiff.Change) -> JSONText {
        let example = change.example
        return .object([
            ("subject", change.subject.map { .string($0) } ?? .null),
            ("withoutSubject", change.withoutSubject ? .bool(true) : nil),
            (
                "subjectMatches",
                change.subjectMatches.isEmpty ? nil : .array(change.subjectMatches.map { .string($0) })
            ),
            ("action", change.action.map { .string($0) } ?? .null),
            (
                "actionMatches",
                change.actionMatches.isEmpty ? nil : .array(change.actionMatches.map { .string($0) })
            ),
            ("gained", json(change.gained)), ("lost", json(change.lost)),
            ("before", .array(change.before.map { .string($0.description) })),
            ("after", .array(change.after.map { .string($0.description) })),
            (
                "example",
                .object([
                    ("subject", example.subject.map { .string($0) } ?? .null),
                    ("action", .string(example.action.rawValue)), ("resource", .string(example.resource)),
                    (
                        "attributes",
                        .object(
                            example.attributes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
                    ),
                    ("before", .string(change.exampleWasAllowed ? "allow" : "deny")),
                    ("after", .string(change.exampleWasAllowed ? "deny" : "allow")),
                ])
            ),
        ])
    }

    /// A residual in the plan's JSON form (``AccessPlan/Residual``'s `Encodable`): `true`,
    /// `false`, `{"match": [runs]}`, `{"allOf": [...]}`, `{"anyOf": [...]}`, `{"not": ...}`.
    static func json(_ residual: AccessPlan.Residual) -> JSONText {
        switch residual {
        case .everything: .bool(true)
        case .nothing: .bool(false)
        case .pattern(let pattern): .object([("match", .array(pattern.runs.map { .string($0) }))])
        case .all(let members): .object([("allOf", .array(members.map(json)))])
        case .any(let members): .object([("anyOf", .array(members.map(json)))])
        case .complement(let member): .object([("not", json(member))])
        case .unplanned(let gatekeeper): .object([("checkEach", .string(gatekeeper))])
        case .attribute(let key, let value):
            .object([("attribute", .object([("name", .string(key)), ("equals", .string(value))]))])
        }
    }
}
