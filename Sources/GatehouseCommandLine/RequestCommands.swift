import Foundation
import GatehouseComposition
import GatehouseCore

/// The options of every command that asks a service's gate about one request.
enum RequestOptions {
    static let config = CommandLineArguments.Option(
        name: "config", valueName: "FILE", help: "the configuration file (JSON)", required: true)
    static let service = CommandLineArguments.Option(
        name: "service", valueName: "NAME", help: "the service; may be left out when the file has one")
    static let subject = CommandLineArguments.Option(
        name: "subject", valueName: "NAME", help: "who asks (default: no subject, the app itself)")
    static let action = CommandLineArguments.Option(
        name: "action", valueName: "NAME", help: "what they want to do (default: read)")
    static let attr = CommandLineArguments.Option(
        name: "attr", valueName: "KEY=VALUE", help: "a request attribute; repeat for more", repeatable: true)
    static let at = CommandLineArguments.Option(
        name: "at", valueName: "INSTANT",
        help: "decide as if the clock read this ISO-8601 instant (2026-11-30T10:00:00Z); it must exist")
    static let decisionLog = CommandLineArguments.Option(
        name: "decision-log", valueName: "FILE",
        help: "append one JSON line per decision to FILE (keeps the configuration's decisionLog mask)")
    static let json = CommandLineArguments.Option(name: "json", help: "print one JSON object instead of text")

    /// A request command's options, `extra` before `--json`; `--action` refused with `refusal`.
    static func all(_ extra: [CommandLineArguments.Option] = [], refusingAction refusal: String? = nil)
        -> [CommandLineArguments.Option]
    {
        var action = action
        action.refusal = refusal
        return [config, service, subject, action, attr, at, decisionLog] + extra + [json]
    }

    /// The `--attr KEY=VALUE` pairs and the `--at` instant, if given.
    static func attributesAndInstant(_ arguments: CommandLineArguments)
        throws(CommandLineArguments.UsageError) -> (attributes: [String: String], instant: Date?)
    {
        var attributes: [String: String] = [:]
        for pair in arguments.all("attr") {
            guard case (let key, let value)? = CommandLineArguments.splitAtEquals(pair), !key.isEmpty else {
                throw .init(message: "--attr expects KEY=VALUE, found '\(pair)'")
            }
            attributes[key] = value
        }
        guard let text = arguments.value("at") else { return (attributes, nil) }
        do {
            return (attributes, try Instant.parse(text))
        } catch {
            throw .init(message: "--at expects \(Instant.description), found '\(text)'; \(error.reason)")
        }
    }
}

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

/// A request's arguments, parsed and assembled: the service, who asks, what about.
struct PreparedRequest {
    var commands: Commands
    var arguments: CommandLineArguments
    /// Every service of the configuration (and its decision log, if any).
    var services: AssembledServices
    var service: ConfiguredService
    /// The positional argument: a key, for `list` a folder, for `plan` empty.
    var key: String
    var instant: Date?
    /// The requests as the service's gate decided them.
    var seen: SeenRequests

    var json: Bool { arguments.flag("json") }

    /// The `--action`, `read` when not given.
    var action: String { arguments.value("action") ?? "read" }

    /// A report on `action` on `key`, its masked attribute values hidden.
    func report(_ command: String, action: String, key: String? = nil) -> Report {
        Report(
            command: command, service: service.name,
            request: service.request(for: key ?? self.key, action: action),
            mask: services.decisionLog?.mask ?? [])
    }
}

/// `gatehouse check`: decides a request without loading anything.
enum Check: RequestCommand {
    static let name = "check"
    static let abstract = "decide whether a request would be allowed, without loading anything"
    static let options = RequestOptions.all()
    static let discussion = """
        Prints whether the request is allowed: the deciding gatekeeper, and its rule (file:line)
        when a rules file decided; for a rules denial, the nearest rules and what failed for each.
        With --json: the request, the outcome and the explained verdict (its nearMisses).

        Exit status: 0 allowed, 3 denied, 1 configuration error, 2 usage error.
        Example: gatehouse check --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt
        """

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        let report = await decide(
            request.report(name, action: request.action), on: request.service, seen: request.seen)
        return request.finish(report, status: report.status)
    }

    /// The report with the explained verdict of its request on `service`, and the request as the
    /// gatekeepers saw it, from `seen` (also for `gatehouse test`).
    static func decide(_ report: Report, on service: ConfiguredService, seen: SeenRequests) async -> Report {
        var report = report
        do {
            report.record(try await service.decide(report.request))
        } catch {
            report.error = "the decision failed: \(describe(error))"
        }
        report.request = seen.take(of: service.name) ?? report.request
        return report
    }
}

/// `gatehouse load`: loads through the gate.
enum Load: RequestCommand {
    static let name = "load"
    static let abstract =
        "load a resource through the gate: the loader is reached only if every gatekeeper allows"
    static let options = RequestOptions.all([
        .init(
            name: "output", valueName: "FILE", help: "write the resource to FILE instead of standard output")
    ])
    static let discussion = """
        Exit status: 0 loaded, 3 denied, 1 error (configuration, loader, output), 2 usage error.
        Example: gatehouse load --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt
        """

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        var report = request.report(name, action: request.action)
        let data: Data
        do {
            data = try await request.service.load(request.key, action: request.action)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        report.bytes = data.count
        if let output = request.arguments.value("output") {
            do {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                report.error = "cannot write \(output): \(describe(error))"
                return request.finish(report, status: .error)
            }
            report.output = output
            return request.finish(report, status: .ok) {
                "loaded \(data.count) bytes to \(printable(output)): \($0.requestText)"
            }
        }
        guard request.json else {
            request.commands.console.outData(data)
            return .ok
        }
        report.content = String(data: data, encoding: .utf8)
        if report.content == nil { report.contentBase64 = data.base64EncodedString() }
        return request.finish(report, status: .ok)
    }
}

/// `gatehouse store`: writes standard input (or `--input`) through the gate, action `write`.
enum Store: RequestCommand {
    static let name = "store"
    static let abstract =
        "write a resource through the gate (action write): the loader is reached only if allowed"
    static let options = RequestOptions.all(
        [
            .init(
                name: "input", valueName: "FILE",
                help: "read the resource from FILE instead of standard input")
        ],
        refusingAction: "store always asks the action write")
    static let discussion = """
        Reads the resource from standard input, or --input FILE: at most 64 MiB (67108864 bytes);
        a larger or endless input (/dev/zero) stops there and nothing is stored (exit status 1).

        Exit status: 0 stored, 3 denied, 1 error (configuration, loader, input over 64 MiB),
        2 usage error (also an input that cannot be read or is a folder).
        """

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        var report = request.report(name, action: "write")
        let data: Data
        do throws(StoreInput.Failure) {
            data = try StoreInput.contents(of: request.arguments.value("input"))
        } catch {
            guard error.status == .error else {
                return request.commands.usage(error.message, json: request.json)
            }
            report.error = error.message
            return request.finish(report, status: .error)
        }
        do {
            try await request.service.store(data, for: request.key)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        report.bytes = data.count
        return request.finish(report, status: .ok) { "stored \(data.count) bytes: \($0.requestInService)" }
    }
}

/// `gatehouse remove`: deletes through the gate, action `delete`.
enum Remove: RequestCommand {
    static let name = "remove"
    static let abstract =
        "delete a resource through the gate (action delete): the loader is reached only if allowed"
    static let options = RequestOptions.all(refusingAction: "remove always asks the action delete")
    static let discussion =
        "Exit status: 0 removed, 3 denied, 1 error (configuration, loader), 2 usage error."

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        var report = request.report(name, action: "delete")
        do {
            try await request.service.remove(request.key)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        return request.finish(report, status: .ok) { "removed: \($0.requestInService)" }
    }
}

/// `gatehouse list`: the keys under a folder that the subject may read.
enum List: RequestCommand {
    static let name = "list"
    static let abstract = "list the keys under a folder that the subject may read, one a line"
    static let options = RequestOptions.all(
        refusingAction: "list asks the action list on the folder, then read on each key")
    static let positionals = ["PREFIX"]
    static let discussion = """
        PREFIX names a folder: "docs" or "docs/"; "" or "/" is the root. The folder is asked as
        action list; each key as action read, and a key that may not be read is left out, unseen.

        Exit status: 0 listed (even when nothing may be read), 3 listing denied, 1 error, 2 usage error.
        """

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        // A folder may be written with a trailing slash ("docs/"); "/" alone is the root.
        let folder = request.key.hasSuffix("/") ? String(request.key.dropLast()) : request.key
        var report = request.report(name, action: "list", key: folder)
        let progress = request.commands.console.progress("listing \(printable(request.key))")
        do {
            defer { progress.finish() }
            report.keys = try await request.service.keys(under: folder)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        guard request.json else {
            for key in report.keys ?? [] { request.commands.console.out(printable(key)) }
            return .ok
        }
        return request.finish(report, status: .ok)
    }
}
