import Foundation
import GatehouseComposition
import GatehouseCore

/// `gatehouse test`: decides every case of a table as `check` would, against what it expects.
enum TestCommand: Subcommand {
    static let name = "test"
    static let abstract = "decide every case of a table as check would, and compare with what each expects"
    static let options = [
        CommandLineArguments.Option(
            name: "failures-only", help: "print only the cases that fail, then the summary"),
        CommandLineArguments.Option(
            name: "coverage",
            help: "then report each rule that decided no case, with why not against the nearest case"),
        RequestOptions.json,
    ]
    static let positionals = ["CASES"]
    static let discussion = """
        CASES is a JSON table; "config" is relative to the table's folder:
          {"config": "gatehouse.json", "cases": [
            {"name": "alice reads her avatar", "subject": "alice", "resource": "avatars/alice.txt",
             "at": "2026-11-30T10:00:00Z", "expect": "allow"}]}
        A case has "name", "resource" and "expect" ("allow" or "deny"), and may have "service",
        "subject", "action" (default read), "attributes" (an object of strings), "at" (as --at)
        and "gatekeeper" (the one expected to decide: for a deny the one that refused, for an
        allow the last one). A gatekeeper that fails fails the case.

        Prints "pass  NAME" or "FAIL  NAME: expected ..., got ..." per case, then "N passed, M failed".
        With --coverage, then "coverage: N rules, M decided a case, K decided none" and, for each
        rule of the services' rules files that decided no case, why not against its nearest case:
          avatars.rules:4: decided no case; nearest "alice reads her avatar": the resource does not
          match avatars/*/private-*
        (--json adds "coverage": {"rules", "decided", "uncovered": ["avatars.rules:4"], "whyNot"}.)

        Exit status: 0 every case holds, 1 a case fails or the configuration is invalid,
        2 the table cannot be read or is malformed (each problem named by its place), or a usage error.
        Example: gatehouse test Examples/demo/gatehouse.tests.json
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let (path, json) = (arguments.positionals[0], arguments.flag("json"))
        let tableFailed = { (problems: [String]) in
            commands.problems(problems, file: path, json: json, status: .usage, command: name)
        }
        let table: TestTable
        do {
            table = try TestTable.parse(try contents(ofTable: path))
        } catch {
            return tableFailed(error.problems)
        }

        let config = Self.path(table.config, besideFile: path)
        // The configuration's clock reads the instant the case being decided pins, if any.
        let pinned = LockedState<Date?>(nil)
        let clock: @Sendable () -> Date = { pinned.withLock { $0 } ?? Date() }
        let seen = SeenRequests()
        guard let services = commands.assemble(config, clock: clock, seen: seen, json: json) else {
            return .error
        }
        var problems: [String] = []
        let chosen = table.cases.map { service(for: $0, in: services, problems: &problems) }
        guard problems.isEmpty else { return tableFailed(problems) }

        let progress = commands.console.progress("deciding \(table.cases.count) cases")
        var outcomes: [CaseOutcome] = []
        for (index, (testCase, service)) in zip(table.cases, chosen.compactMap { $0 }).enumerated() {
            progress.update("deciding case \(index + 1) of \(table.cases.count)")
            pinned.withLock { $0 = testCase.at?.instant }
            let context = AccessContext(subject: testCase.subject, attributes: testCase.attributes)
            let report = AccessContext.$current.withValue(context) {
                Report(
                    command: name, service: service.name,
                    request: service.request(for: testCase.resource, action: testCase.action),
                    mask: services.decisionLog?.mask ?? [])
            }
            outcomes.append(
                CaseOutcome(testCase: testCase, report: await Check.decide(report, on: service, seen: seen)))
        }
        progress.finish()

        let failed = outcomes.filter { !$0.passed }.count
        let coverage =
            arguments.flag("coverage")
            ? TestCoverage(outcomes: outcomes, on: chosen.compactMap { $0 }, of: services) : nil
        if json {
            commands.console.out(
                JSONText.object([
                    ("command", .string(name)), ("file", .string(path)), ("config", .string(config)),
                    ("passed", .number(outcomes.count - failed)), ("failed", .number(failed)),
                    ("cases", .array(outcomes.map(\.json))), ("coverage", coverage?.json),
                ]).text)
        } else {
            for outcome in outcomes where !outcome.passed || !arguments.flag("failures-only") {
                commands.console.out(outcome.line)
                if !outcome.passed { commands.console.out(outcome.requestLine) }
            }
            commands.console.out("\(outcomes.count - failed) passed, \(failed) failed")
            for line in coverage?.lines ?? [] { commands.console.out(line) }
        }
        return failed == 0 ? .ok : .error
    }

    /// The service a case names, or the only one; `nil` with a problem added when there is none.
    private static func service(
        for testCase: TestTable.Case, in services: AssembledServices, problems: inout [String]
    ) -> ConfiguredService? {
        let place = "\(testCase.place).service"
        guard testCase.service != nil || services.services.count == 1 else {
            let names = services.services.map { "\"\($0.name)\"" }.joined(separator: ", ")
            problems.append(
                "\(place): missing; the configuration has \(services.services.count) services (\(names)); name one"
            )
            return nil
        }
        do {
            return try services.service(named: testCase.service)
        } catch {
            problems.append("\(place): \(describe(error))")
            return nil
        }
    }

    /// The bytes of the table at `path` (``BoundedRead``, at most 16 MiB), or
    /// ``TestTable/Malformed`` saying why it cannot be read.
    private static func contents(ofTable path: String) throws(TestTable.Malformed) -> Data {
        do {
            return try BoundedRead.contents(
                ofFile: path, limit: 16 << 20, expected: "a JSON table of cases",
                accepting: .anythingButDirectories, patience: .seconds(10))
        } catch {
            throw TestTable.Malformed(problems: [error.message])
        }
    }

    /// `relative` resolved against the folder of `file`, kept relative when both are.
    static func path(_ relative: String, besideFile file: String) -> String {
        if relative.hasPrefix("/") { return relative }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? relative : (folder as NSString).appendingPathComponent(relative)
    }
}
