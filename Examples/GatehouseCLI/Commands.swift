import Foundation
import GatehouseComposition
import GatehouseCore

/// The subcommands of `gatehouse`. Each returns its exit status and writes through a ``Console``.
struct Commands {
    let console: Console

    static let requestOptions: [CommandLineArguments.Option] = [
        .init(name: "config", valueName: "FILE"),
        .init(name: "service", valueName: "NAME"),
        .init(name: "subject", valueName: "NAME"),
        .init(name: "action", valueName: "NAME"),
        .init(name: "attr", valueName: "KEY=VALUE", repeatable: true),
        .init(name: "at", valueName: "INSTANT"),
        .init(name: "decision-log", valueName: "FILE"),
        .init(name: "json"),
        .init(name: "help"),
    ]

    static let fileOptions: [CommandLineArguments.Option] = [
        .init(name: "json"),
        .init(name: "help"),
    ]

    /// Runs `arguments` (without the program name).
    func run(_ arguments: [String]) async -> ExitStatus {
        guard let command = arguments.first else {
            return await Demo(console: console).run()
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "check": return await request(rest, command: "check", loading: false)
        case "load": return await request(rest, command: "load", loading: true)
        case "validate": return await file(rest, command: "validate")
        case "explain": return await file(rest, command: "explain")
        case "test": return await test(rest)
        case "demo":
            if rest == ["--help"] { return help(Help.demo) }
            guard rest.isEmpty else { return usage("'demo' takes no arguments", help: Help.demo) }
            return await Demo(console: console).run()
        case "help", "--help", "-h":
            if let topic = rest.first {
                guard let text = Help.text(for: topic) else {
                    return usage(
                        "no command '\(topic)'; commands are check, load, validate, explain, test, demo",
                        help: Help.overview)
                }
                return help(text)
            }
            return help(Help.overview)
        default:
            let hint = ["check", "load", "validate", "explain", "test", "demo", "help"].first {
                $0.hasPrefix(command) || command.hasPrefix($0)
            }
            return usage(
                "unknown command '\(command)'\(hint.map { " (did you mean '\($0)'?)" } ?? ""); commands are check, load, validate, explain, test, demo, help",
                help: Help.overview)
        }
    }

    // MARK: check and load

    private func request(_ arguments: [String], command: String, loading: Bool) async -> ExitStatus {
        let helpText = loading ? Help.load : Help.check
        var options = Self.requestOptions
        if loading {
            options.append(.init(name: "output", valueName: "FILE"))
        }
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments(
                arguments, options: options, positionalNames: ["KEY"], command: command)
        } catch {
            if arguments.contains("--help") { return help(helpText) }
            return usage(error.message, help: helpText)
        }
        if parsed.flag("help") { return help(helpText) }
        let json = parsed.flag("json")
        guard let config = parsed.value("config") else {
            return usage("missing --config FILE: the configuration to ask", help: helpText)
        }
        var attributes: [String: String] = [:]
        for pair in parsed.all("attr") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                return usage("--attr expects KEY=VALUE, found '\(pair)'", help: helpText)
            }
            attributes[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        var clock: @Sendable () -> Date = { Date() }
        if let text = parsed.value("at") {
            let instant: Date
            do {
                instant = try Instant.parse(text)
            } catch {
                return usage(
                    "--at expects \(Instant.description), found '\(text)'; \(error.reason)",
                    help: helpText)
            }
            clock = { instant }
        }
        let key = parsed.positionals[0]
        let action = parsed.value("action") ?? "read"
        let output = parsed.value("output")

        let services: AssembledServices
        do {
            services = try Assembler(
                clock: clock, decisionLogFile: parsed.value("decision-log").map { URL(fileURLWithPath: $0) }
            ).assemble(contentsOf: URL(fileURLWithPath: config))
        } catch {
            return configurationFailed(error, file: config, json: json)
        }
        let service: ConfiguredService
        do {
            service = try services.service(named: parsed.value("service"))
        } catch {
            return usage(describe(error), help: nil, json: json)
        }

        let context = AccessContext(subject: parsed.value("subject"), attributes: attributes)
        if !loading {
            let report = await Self.decide(
                key, action: action, context: context, on: service, command: command)
            await closeDecisionLog(of: services)
            return finish(report, json: json, status: report.status)
        }
        let status = await AccessContext.$current.withValue(context) {
            let request = service.request(for: key, action: action)
            var report = Report(command: command, service: service.name, request: request)
            do {
                let data = try await service.load(key, action: action)
                report.allowed = true
                report.bytes = data.count
                if let output {
                    do {
                        try data.write(to: URL(fileURLWithPath: output), options: .atomic)
                        report.output = output
                    } catch {
                        report.error = "cannot write \(output): \(describe(error))"
                        return finish(report, json: json, status: .error)
                    }
                } else if json {
                    report.content = String(data: data, encoding: .utf8)
                    if report.content == nil { report.contentBase64 = data.base64EncodedString() }
                }
                if !json && output == nil {
                    console.outData(data)
                    return .ok
                }
                return finish(report, json: json, status: .ok)
            } catch let denied as AccessDenied {
                report.allowed = false
                report.gate = denied.gatekeeper
                report.reason = denied.reason
                report.gateFailure = denied.isGateFailure
                return finish(report, json: json, status: .denied)
            } catch {
                report.allowed = true
                report.error = "the loader failed: \(describe(error))"
                return finish(report, json: json, status: .error)
            }
        }
        await closeDecisionLog(of: services)
        return status
    }

    /// Closes the decision log, if any, so that every decision is written before the process
    /// exits; a write error is a warning on standard error (the decision stands).
    private func closeDecisionLog(of services: AssembledServices) async {
        guard let log = services.decisionLog else { return }
        await log.close()
        if let error = log.lastError {
            console.err("warning: decision log: \(printable(error.message)) (\(log.lostCount) lost)")
        }
    }

    /// Decides the request for `key` on `service` in `context` without loading anything, as
    /// `check` does: the report says whether it was allowed and, for a denial, the gate, its
    /// reason and whether the gate failed. `gatehouse test` decides each case with it.
    static func decide(
        _ key: String, action: String, context: AccessContext, on service: ConfiguredService, command: String
    ) async -> Report {
        await AccessContext.$current.withValue(context) {
            let request = service.request(for: key, action: action)
            var report = Report(command: command, service: service.name, request: request)
            do {
                try await service.authorize(request)
                report.allowed = true
            } catch let denied as AccessDenied {
                report.allowed = false
                report.gate = denied.gatekeeper
                report.reason = denied.reason
                report.gateFailure = denied.isGateFailure
            } catch {
                report.error = "the decision failed: \(describe(error))"
            }
            return report
        }
    }

    private func finish(_ report: Report, json: Bool, status: ExitStatus) -> ExitStatus {
        if json {
            console.out(report.json)
            return status
        }
        let request = printable(report.request.description)
        let service = printable(report.service)
        switch status {
        case .ok:
            if let output = report.output {
                console.out("loaded \(report.bytes ?? 0) bytes to \(printable(output)): \(request)")
            } else {
                console.out("allowed: \(request) (service \(service))")
            }
        case .denied:
            let gate = printable(report.gate ?? "?")
            let what = report.gateFailure == true ? "denied: gate \(gate) failed" : "denied by \(gate)"
            console.err("\(what): \(printable(report.reason ?? ""))")
            console.err("  request: \(request) (service \(service))")
        default:
            console.err("error: \(printable(report.error ?? "unknown"))")
            console.err("  request: \(request) (service \(service))")
        }
        return status
    }

    // MARK: validate and explain

    private func file(_ arguments: [String], command: String) async -> ExitStatus {
        let helpText = Help.text(for: command) ?? Help.overview
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments(
                arguments, options: Self.fileOptions, positionalNames: ["FILE"], command: command)
        } catch {
            if arguments.contains("--help") { return help(helpText) }
            return usage(error.message, help: helpText)
        }
        if parsed.flag("help") { return help(helpText) }
        let json = parsed.flag("json")
        let path = parsed.positionals[0]
        let services: AssembledServices
        do {
            services = try Assembler().assemble(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return configurationFailed(error, file: path, json: json)
        }
        if command == "validate" {
            // Assembling does not read rules files; a configuration is valid only when they parse.
            do {
                try await services.validate()
            } catch {
                return configurationFailed(error, file: path, json: json)
            }
            let names = services.services.map(\.name)
            if json {
                console.out(
                    JSONText.render([
                        ("file", .string(path)), ("valid", .bool(true)),
                        ("services", .array(names.map { .string($0) })),
                    ]))
            } else {
                console.out(
                    "\(printable(path)): valid; \(names.count) service\(names.count == 1 ? "" : "s"): \(names.map(printable).joined(separator: ", "))"
                )
            }
        } else if json {
            console.out(
                JSONText.render([
                    ("file", .string(path)),
                    (
                        "services",
                        .array(
                            services.services.map {
                                .object([
                                    ("name", .string($0.name)),
                                    ("lines", .array($0.explanation.map { .string($0) })),
                                ])
                            })
                    ),
                ]))
        } else {
            console.out(
                services.services.map { $0.explanation.map(printable).joined(separator: "\n") }
                    .joined(separator: "\n\n"))
        }
        return .ok
    }

    func configurationFailed(_ error: any Error, file: String, json: Bool) -> ExitStatus {
        let issues = (error as? ConfigurationError)?.issues.map(\.description) ?? [describe(error)]
        if json {
            console.out(
                JSONText.render([
                    ("file", .string(file)), ("valid", .bool(false)),
                    ("errors", .array(issues.map { .string($0) })),
                ]))
        } else {
            for issue in issues { console.err("\(printable(file)): \(printable(issue))") }
        }
        return .error
    }

    // MARK: help and usage

    func help(_ text: String) -> ExitStatus {
        console.out(text)
        return .ok
    }

    func usage(_ message: String, help: String?, json: Bool = false) -> ExitStatus {
        if json {
            console.out(JSONText.render([("error", .string(message)), ("usage", .bool(true))]))
            return .usage
        }
        console.err("error: \(printable(message))")
        if let help,
            let line = help.split(separator: "\n").first(where: {
                $0.hasPrefix("Usage:") || $0.hasPrefix("  gatehouse ")
            })
        {
            console.err(String(line))
        }
        console.err("Run 'gatehouse help' or add --help for more.")
        return .usage
    }
}

/// What a `check` or `load` found, as text or as one JSON object.
struct Report {
    var command: String
    var service: String
    var request: AccessRequest
    var allowed: Bool?
    var gate: String?
    var reason: String?
    var gateFailure: Bool?
    var error: String?
    var bytes: Int?
    var output: String?
    var content: String?
    var contentBase64: String?

    /// The exit status of `check` for this report: ok, denied, or error.
    var status: ExitStatus {
        if error != nil { return .error }
        return allowed == true ? .ok : .denied
    }

    var json: String { JSONText.render(members) }

    /// The JSON members, in a fixed order.
    var members: [(String, JSONText)] {
        var members: [(String, JSONText)] = [
            ("command", .string(command)),
            ("service", .string(service)),
            (
                "request",
                .object([
                    ("subject", request.subject.map { .string($0) } ?? .null),
                    ("action", .string(request.action)),
                    ("resource", .string(request.resource)),
                    (
                        "attributes",
                        .object(
                            request.attributes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
                    ),
                ])
            ),
        ]
        if let allowed { members.append(("allowed", .bool(allowed))) }
        if let gate { members.append(("gate", .string(gate))) }
        if let reason { members.append(("reason", .string(reason))) }
        if let gateFailure { members.append(("gateFailure", .bool(gateFailure))) }
        if let error { members.append(("error", .string(error))) }
        if let bytes { members.append(("bytes", .number(bytes))) }
        if let output { members.append(("output", .string(output))) }
        if let content { members.append(("content", .string(content))) }
        if let contentBase64 { members.append(("contentBase64", .string(contentBase64))) }
        return members
    }
}
