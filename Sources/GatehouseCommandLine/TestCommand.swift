import Foundation
import GatehouseComposition
import GatehouseCore

extension Commands {
    /// `gatehouse test [--json] CASES`: decides every case of a table as `check` would and
    /// prints one line per case, then `N passed, M failed`.
    ///
    /// Exit status: 0 when every case holds; 1 when one does not, or the configuration cannot
    /// be assembled; 2 when the table cannot be read or is malformed, or on a usage error.
    func test(_ arguments: [String]) async -> ExitStatus {
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments(
                arguments, options: Self.fileOptions, positionalNames: ["CASES"], command: "test")
        } catch {
            if arguments.contains("--help") { return help(Help.test) }
            return usage(error.message, help: Help.test)
        }
        if parsed.flag("help") { return help(Help.test) }
        let json = parsed.flag("json")
        let path = parsed.positionals[0]

        let table: TestTable
        do {
            table = try TestTable.parse(try Self.contents(ofTable: path))
        } catch {
            return tableFailed(error.problems, file: path, json: json)
        }

        let config = Self.path(table.config, besideFile: path)
        let clock = CaseClock()
        let services: AssembledServices
        do {
            services = try Assembler(registry: registry, clock: { clock.now }).assemble(
                contentsOf: URL(fileURLWithPath: config))
        } catch {
            return configurationFailed(error, file: config, json: json)
        }
        var problems: [String] = []
        let chosen = table.cases.map { Self.service(for: $0, in: services, problems: &problems) }
        guard problems.isEmpty else { return tableFailed(problems, file: path, json: json) }

        var outcomes: [CaseOutcome] = []
        for (testCase, service) in zip(table.cases, chosen.compactMap { $0 }) {
            clock.pin(testCase.at?.instant)
            let context = AccessContext(subject: testCase.subject, attributes: testCase.attributes)
            let report = await Self.decide(
                testCase.resource, action: testCase.action, context: context, on: service, command: "test")
            outcomes.append(CaseOutcome(testCase, report: report))
        }

        let failed = outcomes.filter { !$0.passed }.count
        let summary = "\(outcomes.count - failed) passed, \(failed) failed"
        if json {
            console.out(
                JSONText.render([
                    ("command", .string("test")), ("file", .string(path)), ("config", .string(config)),
                    ("passed", .number(outcomes.count - failed)), ("failed", .number(failed)),
                    ("cases", .array(outcomes.map(\.json))),
                ]))
        } else {
            for outcome in outcomes {
                console.out(outcome.line)
                if !outcome.passed { console.out(outcome.requestLine) }
            }
            console.out(summary)
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

    /// The bytes of the table at `path`.
    ///
    /// - Throws: ``TestTable/Malformed`` saying why it cannot be read.
    private static func contents(ofTable path: String) throws(TestTable.Malformed) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TestTable.Malformed(problems: ["cannot read the table: no such file"])
        }
        guard !isDirectory.boolValue else {
            throw TestTable.Malformed(problems: ["is a directory; expected a JSON table of cases"])
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let reason = posix.map { String(cString: strerror(Int32($0.code))) } ?? "\(error)"
            throw TestTable.Malformed(problems: ["cannot read the table: \(reason)"])
        }
    }

    /// `relative` resolved against the folder of `file`, kept relative when both are.
    static func path(_ relative: String, besideFile file: String) -> String {
        if relative.hasPrefix("/") { return relative }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? relative : (folder as NSString).appendingPathComponent(relative)
    }

    /// Reports a table that cannot be used, each problem after the table's path; exit status 2.
    private func tableFailed(_ problems: [String], file: String, json: Bool) -> ExitStatus {
        if json {
            console.out(
                JSONText.render([
                    ("command", .string("test")), ("file", .string(file)), ("valid", .bool(false)),
                    ("errors", .array(problems.map { .string($0) })),
                ]))
        } else {
            for problem in problems { console.err("\(printable(file)): \(printable(problem))") }
        }
        return .usage
    }
}
