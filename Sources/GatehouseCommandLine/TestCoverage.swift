import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies

/// `gatehouse test --coverage`: which rules decided a case of the table, and for each rule that
/// decided none, why not against its nearest case.
///
/// A rule decided a case when its rules file's decision rested on it for the request as the
/// gatekeepers saw it (resource attributes merged), and the case reached the gatekeeper that
/// holds the file (itself, or the combinator it is nested in). A rule is named `FILE:LINE`, as
/// verdicts name it; a file used by several gatekeepers is covered by the cases of all of them.
struct TestCoverage {
    /// A rule that decided no case: the nearest case (fewest reasons) and why it did not decide it.
    struct Uncovered {
        var rule: String
        var nearestCase: String?
        var whyNot: [String]
    }

    /// How many rules the table's services hold, in every rules file of their chains.
    var rules = 0
    /// How many of them decided at least one case.
    var decided = 0
    /// The others, in file order.
    var uncovered: [Uncovered] = []
    /// Rules files that could not be read, each with why: their rules are not counted.
    var unreadable: [(file: String, reason: String)] = []

    /// The coverage of `outcomes`, each decided on the service of the same index in `services`.
    init(outcomes: [CaseOutcome], on services: [ConfiguredService], of assembled: AssembledServices) {
        // Every rules file once (by its path), with the cases that reached the gatekeeper holding it.
        var files: [(path: String, rules: Result<RulesFile, any Error>, cases: [CaseOutcome])] = []
        var indexOfPath: [String: Int] = [:]
        for service in uniqued(services) {
            for chained in assembled.rulesFiles(of: service) {
                let path = chained.policy.url.standardizedFileURL.path
                let reached = zip(outcomes, services).filter { outcome, decidedOn in
                    decidedOn.name == service.name
                        && outcome.report.verdict?.steps.contains { $0.gatekeeper == chained.gatekeeper }
                            == true
                }.map(\.0)
                if let index = indexOfPath[path] {
                    files[index].cases += reached
                } else {
                    indexOfPath[path] = files.count
                    files.append((path, Result { try chained.policy.currentRules() }, reached))
                }
            }
        }
        for file in files {
            let rulesFile: RulesFile
            switch file.rules {
            case .success(let read): rulesFile = read
            case .failure(let error):
                unreadable.append((URL(fileURLWithPath: file.path).lastPathComponent, describe(error)))
                continue
            }
            let requests = file.cases.map { ($0.testCase.name, $0.report.request) }
            for line in rulesFile.ruleLines {
                rules += 1
                let notes = requests.map {
                    (name: $0.0, notes: rulesFile.whyNot(line: line, for: $0.1) ?? [])
                }
                if notes.contains(where: { $0.notes.isEmpty }) {
                    decided += 1
                    continue
                }
                let nearest = notes.min { $0.notes.count < $1.notes.count }
                uncovered.append(
                    Uncovered(
                        rule: "\(rulesFile.fileName):\(line)", nearestCase: nearest?.name,
                        whyNot: nearest?.notes ?? []))
            }
        }
    }

    /// The lines `gatehouse test --coverage` prints after the summary.
    var lines: [String] {
        var lines = ["coverage: \(rules) rules, \(decided) decided a case, \(uncovered.count) decided none"]
        for file in unreadable {
            lines.append("  \(printable(file.file)): not counted: \(printable(file.reason))")
        }
        for rule in uncovered {
            guard let nearest = rule.nearestCase else {
                lines.append("  \(printable(rule.rule)): decided no case; no case reached its gatekeeper")
                continue
            }
            lines.append(
                "  \(printable(rule.rule)): decided no case; nearest \"\(printable(nearest))\": "
                    + printable(rule.whyNot.joined(separator: "; ")))
        }
        return lines
    }

    /// `{"rules": N, "decided": M, "uncovered": ["docs.rules:4", ...], "whyNot": [...]}`.
    var json: JSONText {
        .object([
            ("rules", .number(rules)), ("decided", .number(decided)),
            ("uncovered", .array(uncovered.map { .string($0.rule) })),
            (
                "unreadable",
                unreadable.isEmpty
                    ? nil
                    : .array(
                        unreadable.map {
                            .object([("file", .string($0.file)), ("reason", .string($0.reason))])
                        })
            ),
            (
                "whyNot",
                .array(
                    uncovered.map {
                        .object([
                            ("rule", .string($0.rule)), ("nearestCase", $0.nearestCase.map { .string($0) }),
                            ("notes", .array($0.whyNot.map { .string($0) })),
                        ])
                    })
            ),
        ])
    }
}

/// `services` without repeats, in first-seen order.
private func uniqued(_ services: [ConfiguredService]) -> [ConfiguredService] {
    var seen = Set<String>()
    return services.filter { seen.insert($0.name).inserted }
}
