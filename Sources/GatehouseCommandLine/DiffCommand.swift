import Foundation
import GatehouseCore
import GatehousePolicies

/// `gatehouse diff`: every decision that changes from one version of a rules file to another.
enum Diff: Subcommand {
    static let name = "diff"
    static let abstract = "print every decision that changes between two versions of a rules file"
    static let positionals = ["OLD", "NEW"]
    static let options = [
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
        let diff: RulesDiff
        do {
            diff = try RulesDiff(
                old: FilePolicy(url: URL(fileURLWithPath: oldPath)),
                new: FilePolicy(url: URL(fileURLWithPath: newPath)))
        } catch {
            let path = error.file == URL(fileURLWithPath: oldPath).lastPathComponent ? oldPath : newPath
            return commands.problems(error.problemDescriptions, file: path, json: json, status: .usage)
        }
        let changes = diff.changes(
            subject: arguments.value("subject"),
            action: arguments.value("action").map { AccessAction(rawValue: $0) },
            attributes: attributes)
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
