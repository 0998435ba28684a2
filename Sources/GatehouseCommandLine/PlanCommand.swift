import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseLoaders

/// `gatehouse plan`: what a subject may reach, as a plan over names, in text, JSON or SQL.
enum Plan: RequestCommand {
    static let name = "plan"
    static let abstract = "print what a subject may reach: the names the gate allows, as a plan"
    static let positionals: [String] = []
    static let options = [
        RequestOptions.config, RequestOptions.service, RequestOptions.subject, RequestOptions.action,
        RequestOptions.attr,
        CommandLineArguments.Option(
            name: "at", valueName: "INSTANT",
            help: "fold time windows at this ISO-8601 instant (default: now)"),
        CommandLineArguments.Option(
            name: "json", help: "print one JSON object: exact, unplanned, prefixes, residual"),
        CommandLineArguments.Option(
            name: "sql",
            help: "print one line: a SQL boolean expression over the column; fails (exit 1) when a "
                + "gatekeeper cannot plan, naming it"),
        CommandLineArguments.Option(
            name: "column", valueName: "NAME",
            help: "the column of resource names for --sql (default: resource; name over a sqlite loader)"),
        CommandLineArguments.Option(
            name: "attribute-column", valueName: "ATTR=COLUMN",
            help: "the column --sql reads the resources' attribute ATTR from (a sqlite loader's by default); "
                + "repeat for more",
            repeatable: true),
        CommandLineArguments.Option(
            name: "dialect", valueName: "sqlite|postgresql",
            help: "the database --sql writes for, exact on its default settings (default: sqlite)"),
    ]
    static let discussion = """
        With --sql the line is ready for SELECT ... WHERE <expression> in the --dialect's database:
        literals quoted, patterns escaped, the column quoted so that a misspelt one fails the query.

        Exit status: 0 printed, 1 error (bad configuration, a gatekeeper that cannot plan with
        --sql), 2 usage.
        """

    /// What `--json` prints.
    private struct Output: Encodable {
        var service: String
        var subject: String?
        var action: String
        var plan: AccessPlan
    }

    static func validate(_ arguments: CommandLineArguments) throws(CommandLineArguments.UsageError) {
        if arguments.flag("json") && arguments.flag("sql") {
            throw .init(message: "give --json or --sql, not both")
        }
        if let dialect = arguments.value("dialect") {
            guard arguments.flag("sql") else {
                throw .init(message: "--dialect names the database of --sql; add --sql")
            }
            guard SQLDialect(rawValue: dialect) != nil else {
                let names = SQLDialect.allCases.map(\.rawValue)
                let close = closestName(to: dialect, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw .init(
                    message: "--dialect \"\(printable(dialect))\" is not a dialect\(close); give "
                        + names.joined(separator: " or "))
            }
        }
        for pair in arguments.all("attribute-column") {
            guard arguments.flag("sql") else {
                throw .init(message: "--attribute-column names a column of --sql; add --sql")
            }
            guard let (name, column) = CommandLineArguments.splitAtEquals(pair), !name.isEmpty,
                SQLDialect.isPlainColumn(column)
            else {
                throw .init(
                    message:
                        "--attribute-column \"\(printable(pair))\" is not ATTR=COLUMN with a plain column "
                        + "name (NAME or TABLE.NAME: letters, digits and _, not starting with a digit)")
            }
        }
        if let column = arguments.value("column") {
            guard arguments.flag("sql") else {
                throw .init(message: "--column names the column of --sql; add --sql")
            }
            guard SQLDialect.isPlainColumn(column) else {
                throw .init(
                    message:
                        "--column \"\(printable(column))\" is not a plain column name; give NAME or TABLE.NAME "
                        + "(letters, digits and _, not starting with a digit)")
            }
        }
    }

    /// The command's `sqlite` loader of `service`, through the wrappers assembly puts around a
    /// loader (`AnyLoader`, and `CachingLoader` for a cache); `nil` for any other loader.
    static func sqliteLoader(of service: ConfiguredService) -> ConfiguredSQLite? {
        var loader = service.proxy.base.base
        if let cached = loader as? CachingLoader<AnyLoader<Never>> { loader = cached.base.base }
        return loader as? ConfiguredSQLite
    }

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        let console = request.commands.console
        let (service, subject, action) = (request.service, AccessContext.current.subject, request.action)
        let plan: AccessPlan
        do {
            plan = try await service.gate.plan(
                subject: subject, action: AccessAction(rawValue: action),
                attributes: AccessContext.current.attributes, at: request.instant)
        } catch {
            console.err("error: cancelled")
            return .error
        }
        if request.arguments.flag("sql") {
            guard plan.isExact else {
                let names = plan.unplanned.map { "'\(printable($0))'" }.joined(separator: ", ")
                console.err(
                    "error: no exact SQL: the gatekeeper \(names) cannot plan, so each name must be asked of it"
                )
                return .error
            }
            // Over the command's sqlite loader, its own table's columns are the defaults.
            let table = sqliteLoader(of: service)
            var columns = table?.attributeColumns ?? [:]
            for pair in request.arguments.all("attribute-column") {
                if let (name, column) = CommandLineArguments.splitAtEquals(pair) { columns[name] = column }
            }
            let lacking = plan.attributesWithoutColumn(columns)
            guard lacking.isEmpty else {
                let names = lacking.map { "'\(printable($0))'" }.joined(separator: ", ")
                console.err(
                    "error: no exact SQL: the plan reads the resources' attribute \(names), which has no column "
                        + "(give --attribute-column ATTR=COLUMN), so each name must be asked")
                return .error
            }
            // The real values: the caller asked for a query to run (docs/cli.md).
            let dialect = request.arguments.value("dialect").flatMap(SQLDialect.init(rawValue:)) ?? .sqlite
            console.out(
                plan.sql(
                    column: request.arguments.value("column") ?? (table == nil ? "resource" : "name"),
                    attributeColumns: columns,
                    dialect: dialect))
            return .ok
        }
        // Masked values read `(masked)` inside the substituted patterns, as in every record.
        let mask = request.services.decisionLog?.mask ?? []
        let shown = Redaction(mask: mask, attributes: AccessContext.current.attributes).plan(plan)
        if request.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let output = Output(service: service.name, subject: subject, action: action, plan: shown)
            console.out((try? encoder.encode(output)).map { String(decoding: $0, as: UTF8.self) } ?? "{}")
        } else {
            console.out(
                printable("\(subject ?? "(no subject)") \(action) in \(service.name): \(shown.residual)"))
            console.out(printable("prefixes: \(shown.prefixes.map { "\"\($0)\"" }.joined(separator: ", "))"))
            if !shown.isExact {
                console.out(printable("check each name with: \(shown.unplanned.joined(separator: ", "))"))
            }
        }
        return .ok
    }
}
