import Foundation
import GatehouseComposition
import GatehouseCore

/// `gatehouse plan`: what a subject may reach in a service, as a plan over resource names, in
/// text, JSON or one line of SQL.
struct PlanCommand {
    let console: Console
    let registry: PluginRegistry

    static let help = """
        gatehouse plan - print what a subject may reach: the names the gate allows, as a plan

        Usage:
          gatehouse plan --config FILE [--service NAME] [--subject NAME] [--action NAME]
                         [--attr KEY=VALUE]... [--at INSTANT] [--json | --sql [--column NAME]]

          --config FILE      the configuration file (JSON)
          --service NAME     the service; may be left out when the file has one service
          --subject NAME     who asks (default: no subject, the app itself)
          --action NAME      what they want to do (default: read)
          --attr KEY=VALUE   a request attribute; repeat for more
          --at INSTANT       fold time windows at this ISO-8601 instant (default: now)
          --json             print one JSON object: exact, unplanned, prefixes, residual
          --sql              print one line: a SQL boolean expression over the column, for
                             SELECT ... WHERE <expression>; fails (exit 1) when a gatekeeper
                             cannot plan, naming it
          --column NAME      the column of resource names for --sql (default: resource)
          --help             show this help

        Exit status: 0 printed, 1 error (bad configuration, a gatekeeper that cannot plan with
        --sql), 2 usage.
        """

    static let options: [CommandLineArguments.Option] = [
        .init(name: "config", valueName: "FILE"), .init(name: "service", valueName: "NAME"),
        .init(name: "subject", valueName: "NAME"), .init(name: "action", valueName: "NAME"),
        .init(name: "attr", valueName: "KEY=VALUE", repeatable: true),
        .init(name: "at", valueName: "INSTANT"),
        .init(name: "json"), .init(name: "sql"), .init(name: "column", valueName: "NAME"),
        .init(name: "help"),
    ]

    /// What `--json` prints.
    private struct Output: Encodable {
        var service: String
        var subject: String?
        var action: String
        var plan: AccessPlan
    }

    /// Runs `plan` with `arguments` (after the word `plan`).
    func run(_ arguments: [String]) async -> ExitStatus {
        let commands = Commands(console: console, registry: registry)
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments(
                arguments, options: Self.options, positionalNames: [], command: "plan")
        } catch {
            if arguments.contains("--help") { return commands.help(Self.help) }
            return commands.usage(error.message, help: Self.help)
        }
        if parsed.flag("help") { return commands.help(Self.help) }
        let (json, sql) = (parsed.flag("json"), parsed.flag("sql"))
        guard let config = parsed.value("config") else {
            return commands.usage("missing --config FILE: the configuration to plan", help: Self.help)
        }
        if json && sql { return commands.usage("give --json or --sql, not both", help: Self.help) }
        if parsed.value("column") != nil && !sql {
            return commands.usage("--column names the column of --sql; add --sql", help: Self.help)
        }
        var attributes: [String: String] = [:]
        for pair in parsed.all("attr") {
            guard let equals = pair.unicodeScalars.firstIndex(of: "="), equals != pair.startIndex else {
                return commands.usage("--attr expects KEY=VALUE, found '\(pair)'", help: Self.help)
            }
            attributes[String(pair[..<equals])] = String(pair[pair.unicodeScalars.index(after: equals)...])
        }
        var instant: Date?
        if let text = parsed.value("at") {
            do {
                instant = try Instant.parse(text)
            } catch {
                return commands.usage(
                    "--at expects \(Instant.description), found '\(text)'; \(error.reason)", help: Self.help)
            }
        }
        let service: ConfiguredService
        do {
            let services = try Assembler(registry: registry).assemble(
                contentsOf: URL(fileURLWithPath: config))
            service = try services.service(named: parsed.value("service"))
        } catch {
            return commands.configurationFailed(error, file: config, json: json)
        }
        let (subject, action) = (parsed.value("subject"), parsed.value("action") ?? "read")
        let plan: AccessPlan
        do {
            plan = try await service.gate.plan(
                subject: subject, action: action, attributes: attributes, at: instant)
        } catch {
            console.err("error: cancelled")
            return .error
        }
        if sql {
            guard plan.isExact else {
                let names = plan.unplanned.map { "'\(printable($0))'" }.joined(separator: ", ")
                console.err(
                    "error: no exact SQL: the gatekeeper \(names) cannot plan, so each name must be asked of it"
                )
                return .error
            }
            console.out(plan.sql(column: parsed.value("column") ?? "resource"))
        } else if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let output = Output(service: service.name, subject: subject, action: action, plan: plan)
            console.out((try? encoder.encode(output)).map { String(decoding: $0, as: UTF8.self) } ?? "{}")
        } else {
            console.out(
                printable("\(subject ?? "(no subject)") \(action) in \(service.name): \(plan.residual)"))
            console.out(printable("prefixes: \(plan.prefixes.map { "\"\($0)\"" }.joined(separator: ", "))"))
            if !plan.isExact {
                console.out(printable("check each name with: \(plan.unplanned.joined(separator: ", "))"))
            }
        }
        return .ok
    }
}
