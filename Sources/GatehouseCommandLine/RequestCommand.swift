import Foundation
import GatehouseComposition
import GatehouseCore

/// A subcommand about one request; the shared `run` assembles it, its ``run(_:)`` answers it.
protocol RequestCommand: Subcommand {
    /// Refuses arguments that do not go together; the default accepts all.
    static func validate(_ arguments: CommandLineArguments) throws(CommandLineArguments.UsageError)
    /// Runs the command on its request, prepared.
    static func run(_ request: PreparedRequest) async -> ExitStatus
}

extension RequestCommand {
    static var positionals: [String] { ["KEY"] }

    static func validate(_ arguments: CommandLineArguments) throws(CommandLineArguments.UsageError) {}

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        let json = arguments.flag("json")
        let parsed: (attributes: [String: String], instant: Date?)
        do throws(CommandLineArguments.UsageError) {
            try validate(arguments)
            parsed = try RequestOptions.attributesAndInstant(arguments)
        } catch {
            return commands.usage(error.message, json: json)
        }
        let seen = SeenRequests()
        guard
            let services = commands.assemble(
                arguments.value("config") ?? "", clock: { parsed.instant ?? Date() },
                decisionLog: arguments.value("decision-log"), seen: seen, json: json)
        else { return .error }
        let service: ConfiguredService
        do {
            service = try services.service(named: arguments.value("service"))
        } catch {
            return commands.usage(describe(error), json: json)
        }
        let context = AccessContext(subject: arguments.value("subject"), attributes: parsed.attributes)
        let request = PreparedRequest(
            commands: commands, arguments: arguments, services: services, service: service,
            key: arguments.positionals.first ?? "", instant: parsed.instant, seen: seen)
        let status = await AccessContext.$current.withValue(context) { await run(request) }
        await commands.closeDecisionLog(of: services)
        return status
    }
}
