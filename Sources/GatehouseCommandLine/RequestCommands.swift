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

    /// The options of `store`, `remove` and `list`, whose action is fixed: `--action` is refused
    /// with `refusal`.
    static func fixedAction(_ refusal: String, extra: [CommandLineArguments.Option] = [])
        -> [CommandLineArguments.Option]
    {
        var refused = action
        refused.refusal = refusal
        return [config, service, subject, attr, at, decisionLog] + extra + [json, refused]
    }

    /// A request's arguments, parsed and assembled: the service, who asks, what about.
    struct Prepared {
        var arguments: CommandLineArguments
        /// Every service of the configuration (and its decision log, if any).
        var services: AssembledServices
        var service: ConfiguredService
        var context: AccessContext
        /// The positional argument: a key, or for `list` a folder.
        var key: String
        var json: Bool

        /// A report on `action` on `key`, its masked attribute values hidden.
        func report(_ command: String, action: String, key: String? = nil) -> Report {
            Report(
                command: command, service: service.name,
                request: service.request(for: key ?? self.key, action: action),
                mask: services.decisionLog?.mask ?? [])
        }
    }

    /// The `--attr KEY=VALUE` pairs.
    static func attributes(_ arguments: CommandLineArguments) throws(CommandLineArguments.UsageError)
        -> [String: String]
    {
        var attributes: [String: String] = [:]
        for pair in arguments.all("attr") {
            // The `=` scalar: a value starting with a combining mark makes one `Character` with it.
            guard let equals = pair.unicodeScalars.firstIndex(of: "="), equals != pair.startIndex else {
                throw .init(message: "--attr expects KEY=VALUE, found '\(pair)'")
            }
            attributes[String(pair[..<equals])] = String(pair[pair.unicodeScalars.index(after: equals)...])
        }
        return attributes
    }

    /// The `--at` instant, if given.
    static func instant(_ arguments: CommandLineArguments) throws(CommandLineArguments.UsageError) -> Date? {
        guard let text = arguments.value("at") else { return nil }
        do {
            return try Instant.parse(text)
        } catch {
            throw .init(message: "--at expects \(Instant.description), found '\(text)'; \(error.reason)")
        }
    }

    /// Reads the attributes and the instant, assembles the configuration and picks the
    /// service, then runs `body` and closes the decision log; a mistake ends it with its status.
    static func run(
        _ arguments: CommandLineArguments, _ commands: Commands, _ body: (Prepared) async -> ExitStatus
    ) async -> ExitStatus {
        let json = arguments.flag("json")
        let usage = { (message: String) in commands.usage(message, json: json) }
        let attributes: [String: String]
        let instant: Date?
        do throws(CommandLineArguments.UsageError) {
            attributes = try Self.attributes(arguments)
            instant = try Self.instant(arguments)
        } catch {
            return usage(error.message)
        }
        let clock: @Sendable () -> Date = { instant ?? Date() }
        let config = arguments.value("config") ?? ""
        guard
            let services = commands.assemble(
                config, clock: clock, decisionLog: arguments.value("decision-log"), json: json)
        else { return .error }
        let service: ConfiguredService
        do {
            service = try services.service(named: arguments.value("service"))
        } catch {
            return usage(describe(error))
        }
        let prepared = Prepared(
            arguments: arguments, services: services, service: service,
            context: AccessContext(subject: arguments.value("subject"), attributes: attributes),
            key: arguments.positionals[0], json: json)
        let status = await AccessContext.$current.withValue(prepared.context) { await body(prepared) }
        await commands.closeDecisionLog(of: services)
        return status
    }
}

/// `gatehouse check`: decides a request without loading anything.
enum Check: Subcommand {
    static let name = "check"
    static let abstract = "decide whether a request would be allowed, without loading anything"
    static let options = [
        RequestOptions.config, RequestOptions.service, RequestOptions.subject, RequestOptions.action,
        RequestOptions.attr, RequestOptions.at, RequestOptions.decisionLog, RequestOptions.json,
    ]
    static let positionals = ["KEY"]
    static let discussion = """
        Prints whether the request is allowed: the deciding gatekeeper, and its rule (file:line)
        when a rules file decided; for a rules denial, the nearest rules and what failed for each.
        With --json: the request, the outcome and the explained verdict (its nearMisses).

        Exit status: 0 allowed, 3 denied, 1 configuration error, 2 usage error.
        Example: gatehouse check --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        await RequestOptions.run(arguments, commands) { prepared in
            let report = await decide(
                prepared.report(name, action: arguments.value("action") ?? "read"), on: prepared.service)
            return commands.finish(report, json: prepared.json, status: report.status)
        }
    }

    /// Decides the report's request on `service` without loading anything, as `check` does:
    /// the report takes the explained verdict. `gatehouse test` decides each case with it.
    static func decide(_ report: Report, on service: ConfiguredService) async -> Report {
        var report = report
        do {
            report.record(try await service.decide(report.request))
        } catch {
            report.error = "the decision failed: \(describe(error))"
        }
        return report
    }
}

/// `gatehouse load`: loads through the gate.
enum Load: Subcommand {
    static let name = "load"
    static let abstract =
        "load a resource through the gate: the loader is reached only if every gatekeeper allows"
    static let options =
        Array(Check.options.dropLast())
        + [
            .init(
                name: "output", valueName: "FILE",
                help: "write the resource to FILE instead of standard output"),
            RequestOptions.json,
        ]
    static let positionals = ["KEY"]
    static let discussion = """
        Exit status: 0 loaded, 3 denied, 1 error (configuration, loader, output), 2 usage error.
        Example: gatehouse load --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        await RequestOptions.run(arguments, commands) { prepared in
            let (json, output) = (prepared.json, arguments.value("output"))
            let action = arguments.value("action") ?? "read"
            var report = prepared.report(name, action: action)
            let data: Data
            do {
                data = try await prepared.service.load(prepared.key, action: action)
            } catch {
                return commands.finish(report, after: error, json: json)
            }
            report.allowed = true
            report.bytes = data.count
            if let output {
                do {
                    try data.write(to: URL(fileURLWithPath: output), options: .atomic)
                    report.output = output
                } catch {
                    report.error = "cannot write \(output): \(describe(error))"
                    return commands.finish(report, json: json, status: .error)
                }
            } else if json {
                report.content = String(data: data, encoding: .utf8)
                if report.content == nil { report.contentBase64 = data.base64EncodedString() }
            } else {
                commands.console.outData(data)
                return .ok
            }
            return commands.finish(report, json: json, status: .ok)
        }
    }
}

/// `gatehouse store`: writes standard input (or `--input`) through the gate, action `write`.
enum Store: Subcommand {
    static let name = "store"
    static let abstract =
        "write a resource through the gate (action write): the loader is reached only if allowed"
    static let options = RequestOptions.fixedAction(
        "store always asks the action write",
        extra: [
            .init(
                name: "input", valueName: "FILE",
                help: "read the resource from FILE instead of standard input")
        ])
    static let positionals = ["KEY"]
    static let discussion = """
        Reads the resource from standard input, or --input FILE: at most 64 MiB (67108864 bytes);
        a larger or endless input (/dev/zero) stops there and nothing is stored (exit status 1).

        Exit status: 0 stored, 3 denied, 1 error (configuration, loader, input over 64 MiB),
        2 usage error (also an input that cannot be read or is a folder).
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        await RequestOptions.run(arguments, commands) { prepared in
            var report = prepared.report(name, action: "write")
            let data: Data
            // Read up to the limit only: an endless input is refused, never held whole.
            do throws(StoreInput.Failure) {
                data = try StoreInput.contents(of: arguments.value("input"))
            } catch {
                guard error.status == .error else {
                    return commands.usage(error.message, json: prepared.json)
                }
                report.error = error.message
                return commands.finish(report, json: prepared.json, status: .error)
            }
            do {
                try await prepared.service.store(data, for: prepared.key)
            } catch {
                return commands.finish(report, after: error, json: prepared.json)
            }
            report.allowed = true
            report.bytes = data.count
            return commands.finish(report, json: prepared.json, status: .ok)
        }
    }
}

/// `gatehouse remove`: deletes through the gate, action `delete`.
enum Remove: Subcommand {
    static let name = "remove"
    static let abstract =
        "delete a resource through the gate (action delete): the loader is reached only if allowed"
    static let options = RequestOptions.fixedAction("remove always asks the action delete")
    static let positionals = ["KEY"]
    static let discussion =
        "Exit status: 0 removed, 3 denied, 1 error (configuration, loader), 2 usage error."

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        await RequestOptions.run(arguments, commands) { prepared in
            var report = prepared.report(name, action: "delete")
            do {
                try await prepared.service.remove(prepared.key)
            } catch {
                return commands.finish(report, after: error, json: prepared.json)
            }
            report.allowed = true
            return commands.finish(report, json: prepared.json, status: .ok)
        }
    }
}

/// `gatehouse list`: the keys under a folder that the subject may read.
enum List: Subcommand {
    static let name = "list"
    static let abstract = "list the keys under a folder that the subject may read, one a line"
    static let options = RequestOptions.fixedAction(
        "list asks the action list on the folder, then read on each key")
    static let positionals = ["PREFIX"]
    static let discussion = """
        PREFIX names a folder: "docs" or "docs/"; "" or "/" is the root. The folder is asked as
        action list; each key as action read, and a key that may not be read is left out, unseen.

        Exit status: 0 listed (even when nothing may be read), 3 listing denied, 1 error, 2 usage error.
        """

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        await RequestOptions.run(arguments, commands) { prepared in
            // A folder may be written with a trailing slash ("docs/"); "/" alone is the root.
            let folder = prepared.key.hasSuffix("/") ? String(prepared.key.dropLast()) : prepared.key
            var report = prepared.report(name, action: "list", key: folder)
            let progress = commands.console.progress("listing \(printable(prepared.key))")
            do {
                report.keys = try await prepared.service.keys(under: folder)
            } catch {
                progress.finish()
                return commands.finish(report, after: error, json: prepared.json)
            }
            progress.finish()
            report.allowed = true
            guard prepared.json else {
                for key in report.keys ?? [] { commands.console.out(printable(key)) }
                return .ok
            }
            return commands.finish(report, json: prepared.json, status: .ok)
        }
    }
}
