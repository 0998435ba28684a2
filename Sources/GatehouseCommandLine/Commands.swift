import Foundation
import GatehouseComposition
import GatehouseCore

/// The subcommands of `gatehouse`. Each returns its exit status and writes through a ``Console``.
struct Commands {
    let console: Console
    /// The component types every configuration may name; every `Assembler` here is given it.
    let registry: PluginRegistry

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
            return await Demo(console: console, registry: registry).run()
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "check": return await request(rest, command: "check", loading: false)
        case "load": return await request(rest, command: "load", loading: true)
        case "store", "remove", "list": return await operate(rest, command: command)
        case "validate": return await file(rest, command: "validate")
        case "explain": return await file(rest, command: "explain")
        case "test": return await test(rest)
        case "plan": return await PlanCommand(console: console, registry: registry).run(rest)
        case "demo":
            if rest == ["--help"] { return help(Help.demo) }
            guard rest.isEmpty else { return usage("'demo' takes no arguments", help: Help.demo) }
            return await Demo(console: console, registry: registry).run()
        case "help", "--help", "-h":
            if let topic = rest.first {
                guard let text = Help.text(for: topic) else {
                    return usage(
                        "no command '\(topic)'; commands are check, load, store, remove, list, validate, explain, test, demo",
                        help: Help.overview)
                }
                return help(text)
            }
            return help(Help.overview)
        default:
            let hint = [
                "check", "load", "store", "remove", "list", "validate", "explain", "test", "demo", "help",
            ].first {
                $0.hasPrefix(command) || command.hasPrefix($0)
            }
            return usage(
                "unknown command '\(command)'\(hint.map { " (did you mean '\($0)'?)" } ?? ""); commands are check, load, store, remove, list, validate, explain, test, demo, help",
                help: Help.overview)
        }
    }

    // MARK: check, load, store, remove, list

    /// A request command's arguments, parsed and assembled: the service, who asks, what about.
    struct Prepared {
        var parsed: CommandLineArguments
        /// Every service of the configuration (and its decision log, if any).
        var services: AssembledServices
        var service: ConfiguredService
        var context: AccessContext
        /// The positional argument: a key, or for `list` a folder.
        var key: String
        var json: Bool
    }

    /// Parsed arguments, or the exit status of a command that ended while parsing them.
    enum Preparation {
        case ready(Prepared)
        case finished(ExitStatus)
    }

    /// Parses the options every request command takes (and `extra`), assembles the
    /// configuration and picks the service.
    private func prepare(
        _ arguments: [String], command: String, helpText: String, options: [CommandLineArguments.Option],
        positional: String
    ) -> Preparation {
        let parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments(
                arguments, options: options, positionalNames: [positional], command: command)
        } catch {
            if arguments.contains("--help") { return .finished(help(helpText)) }
            return .finished(usage(error.message, help: helpText))
        }
        if parsed.flag("help") { return .finished(help(helpText)) }
        let json = parsed.flag("json")
        guard let config = parsed.value("config") else {
            return .finished(usage("missing --config FILE: the configuration to ask", help: helpText))
        }
        var attributes: [String: String] = [:]
        for pair in parsed.all("attr") {
            // The `=` scalar: a value starting with a combining mark makes one `Character` with it.
            guard let equals = pair.unicodeScalars.firstIndex(of: "="), equals != pair.startIndex else {
                return .finished(usage("--attr expects KEY=VALUE, found '\(pair)'", help: helpText))
            }
            attributes[String(pair[..<equals])] = String(pair[pair.unicodeScalars.index(after: equals)...])
        }
        var clock: @Sendable () -> Date = { Date() }
        if let text = parsed.value("at") {
            let instant: Date
            do {
                instant = try Instant.parse(text)
            } catch {
                return .finished(
                    usage(
                        "--at expects \(Instant.description), found '\(text)'; \(error.reason)",
                        help: helpText))
            }
            clock = { instant }
        }
        let services: AssembledServices
        do {
            services = try Assembler(
                registry: registry, clock: clock,
                decisionLogFile: parsed.value("decision-log").map { URL(fileURLWithPath: $0) }
            ).assemble(contentsOf: URL(fileURLWithPath: config))
        } catch {
            return .finished(configurationFailed(error, file: config, json: json))
        }
        let service: ConfiguredService
        do {
            service = try services.service(named: parsed.value("service"))
        } catch {
            return .finished(usage(describe(error), help: nil, json: json))
        }
        let context = AccessContext(subject: parsed.value("subject"), attributes: attributes)
        return .ready(
            Prepared(
                parsed: parsed, services: services, service: service, context: context,
                key: parsed.positionals[0],
                json: json))
    }

    private func request(_ arguments: [String], command: String, loading: Bool) async -> ExitStatus {
        let helpText = loading ? Help.load : Help.check
        var options = Self.requestOptions
        if loading {
            options.append(.init(name: "output", valueName: "FILE"))
        }
        let prepared: Prepared
        switch prepare(arguments, command: command, helpText: helpText, options: options, positional: "KEY") {
        case .finished(let status): return status
        case .ready(let ready): prepared = ready
        }
        let status = await request(prepared, command: command, loading: loading)
        await closeDecisionLog(of: prepared.services)
        return status
    }

    /// `check` or `load` of a prepared request.
    private func request(_ prepared: Prepared, command: String, loading: Bool) async -> ExitStatus {
        let (service, key, json) = (prepared.service, prepared.key, prepared.json)
        let action = prepared.parsed.value("action") ?? "read"
        let output = prepared.parsed.value("output")
        if !loading {
            let report = await Self.decide(
                key, action: action, context: prepared.context, on: service, command: command)
            return finish(report, json: json, status: report.status)
        }
        return await AccessContext.$current.withValue(prepared.context) {
            var report = Report(
                command: command, service: service.name, request: service.request(for: key, action: action))
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
            } catch {
                return finish(report, after: error, json: json)
            }
        }
    }

    /// `store`, `remove` and `list`: one operation through the service's gate, with the action
    /// the operation asks (`write`, `delete`, `list` then `read` for each key).
    private func operate(_ arguments: [String], command: String) async -> ExitStatus {
        let helpText = Help.text(for: command) ?? Help.overview
        var options = Self.requestOptions.filter { $0.name != "action" }
        if command == "store" { options.append(.init(name: "input", valueName: "FILE")) }
        let prepared: Prepared
        switch prepare(
            arguments, command: command, helpText: helpText, options: options,
            positional: command == "list" ? "PREFIX" : "KEY")
        {
        case .finished(let status): return status
        case .ready(let ready): prepared = ready
        }
        let status = await operate(prepared, command: command)
        await closeDecisionLog(of: prepared.services)
        return status
    }

    /// `store`, `remove` or `list` of a prepared request.
    private func operate(_ prepared: Prepared, command: String) async -> ExitStatus {
        let (service, json) = (prepared.service, prepared.json)
        // A folder may be written with a trailing slash ("docs/"); "/" alone is the root.
        let key =
            command == "list" && prepared.key.hasSuffix("/") ? String(prepared.key.dropLast()) : prepared.key
        let action = ["store": "write", "remove": "delete", "list": "list"][command] ?? command
        return await AccessContext.$current.withValue(prepared.context) {
            var report = Report(
                command: command, service: service.name, request: service.request(for: key, action: action))
            var data = Data()
            if command == "store" {
                // Read up to the limit only: an endless input is refused, never held whole.
                do throws(StoreInput.Failure) {
                    data = try StoreInput.contents(of: prepared.parsed.value("input"))
                } catch {
                    guard error.status == .error else { return usage(error.message, help: nil, json: json) }
                    report.error = error.message
                    return finish(report, json: json, status: .error)
                }
            }
            do {
                switch command {
                case "store":
                    try await service.store(data, for: key)
                    report.bytes = data.count
                case "remove":
                    try await service.remove(key)
                default:
                    report.keys = try await service.keys(under: key)
                }
                report.allowed = true
                if command == "list", !json {
                    for listed in report.keys ?? [] { console.out(printable(listed)) }
                    return .ok
                }
                return finish(report, json: json, status: .ok)
            } catch {
                return finish(report, after: error, json: json)
            }
        }
    }

    /// Closes the decision log, if any, so that every decision is written before the process
    /// exits, shadow answers included (they come off the caller's path: waited for first); a
    /// write error is a warning on standard error (the decision stands).
    private func closeDecisionLog(of services: AssembledServices) async {
        guard let log = services.decisionLog else { return }
        for service in services.services { await service.gate.waitForShadowAnswers() }
        await log.close()
        if let error = log.lastError {
            console.err("warning: decision log: \(printable(error.message)) (\(log.lostCount) lost)")
        }
    }

    /// Decides the request for `key` on `service` in `context` without loading anything, as
    /// `check` does: the report holds the explained verdict (the deciding gatekeeper, its reason
    /// and rule, every step). `gatehouse test` decides each case with it.
    static func decide(
        _ key: String, action: String, context: AccessContext, on service: ConfiguredService, command: String
    ) async -> Report {
        await AccessContext.$current.withValue(context) {
            let request = service.request(for: key, action: action)
            var report = Report(command: command, service: service.name, request: request)
            do {
                report.record(try await service.decide(request))
            } catch {
                report.error = "the decision failed: \(describe(error))"
            }
            return report
        }
    }

    /// Finishes an operation that threw: a denial exits 3; anything else came from the loader,
    /// after the gate allowed, and exits 1.
    private func finish(_ report: Report, after error: any Error, json: Bool) -> ExitStatus {
        var report = report
        if let denied = error as? AccessDenied {
            report.record(denied)
            return finish(report, json: json, status: .denied)
        }
        report.allowed = true
        report.error = "the loader failed: \(describe(error))"
        return finish(report, json: json, status: .error)
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
            let rule =
                report.rule.map { " by \(printable(report.gatekeeper ?? "?")) (\(printable($0)))" } ?? ""
            if let output = report.output {
                console.out("loaded \(report.bytes ?? 0) bytes to \(printable(output)): \(request)")
            } else if report.command == "store" {
                console.out("stored \(report.bytes ?? 0) bytes: \(request) (service \(service))")
            } else if report.command == "remove" {
                console.out("removed: \(request) (service \(service))")
            } else {
                console.out("allowed\(rule): \(request) (service \(service))")
            }
        case .denied:
            // A rules file's reason names its line already ("avatars.rules:5 denies").
            let gatekeeper = printable(report.gatekeeper ?? "?")
            let what =
                report.gateFailure == true
                ? "denied: gatekeeper \(gatekeeper) failed" : "denied by \(gatekeeper)"
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
            services = try Assembler(registry: registry).assemble(contentsOf: URL(fileURLWithPath: path))
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

/// What a request command found, as text or as one JSON object.
struct Report {
    var command: String
    var service: String
    var request: AccessRequest
    var allowed: Bool?
    /// The deciding gatekeeper: for a denial the one that refused, for an allow the last one.
    var gatekeeper: String?
    var reason: String?
    /// The deciding rule (`file:line`), when the gatekeeper knows it.
    var rule: String?
    var gateFailure: Bool?
    /// The explained verdict, for `check`.
    var verdict: AccessVerdict?
    var error: String?
    var bytes: Int?
    var output: String?
    var content: String?
    var contentBase64: String?
    /// The keys `list` may show.
    var keys: [String]?

    /// The exit status of `check` for this report: ok, denied, or error.
    var status: ExitStatus {
        if error != nil { return .error }
        return allowed == true ? .ok : .denied
    }

    /// Takes the verdict's outcome, deciding gatekeeper, reason and rule.
    mutating func record(_ verdict: AccessVerdict) {
        self.verdict = verdict
        allowed = verdict.isAllowed
        gatekeeper = verdict.gatekeeper
        reason = verdict.reason
        rule = verdict.rule?.description
        if !verdict.isAllowed { gateFailure = verdict.outcome == .failed }
    }

    /// Takes the denial's gatekeeper, reason and rule.
    mutating func record(_ denied: AccessDenied) {
        allowed = false
        gatekeeper = denied.gatekeeper
        reason = denied.reason
        rule = denied.rule?.description
        gateFailure = denied.isGateFailure
    }

    var json: String { JSONText.render(members) }

    /// The JSON members, in a fixed order.
    var members: [(String, JSONText)] {
        var members: [(String, JSONText)] = [
            ("command", .string(command)),
            ("service", .string(service)),
            ("request", Self.json(request)),
        ]
        if let allowed { members.append(("allowed", .bool(allowed))) }
        if let gatekeeper { members.append(("gatekeeper", .string(gatekeeper))) }
        if let reason { members.append(("reason", .string(reason))) }
        if let rule { members.append(("rule", .string(rule))) }
        if let gateFailure { members.append(("gateFailure", .bool(gateFailure))) }
        if let verdict { members.append(("verdict", Self.json(verdict))) }
        if let error { members.append(("error", .string(error))) }
        if let bytes { members.append(("bytes", .number(bytes))) }
        if let output { members.append(("output", .string(output))) }
        if let content { members.append(("content", .string(content))) }
        if let contentBase64 { members.append(("contentBase64", .string(contentBase64))) }
        if let keys { members.append(("keys", .array(keys.map { .string($0) }))) }
        return members
    }

    static func json(_ request: AccessRequest) -> JSONText {
        .object([
            ("subject", request.subject.map { .string($0) } ?? .null),
            ("action", .string(request.action)),
            ("resource", .string(request.resource)),
            (
                "attributes",
                .object(request.attributes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
            ),
        ])
    }

    /// The verdict as `AccessVerdict` encodes itself: outcome, gatekeeper, reason, rule, steps.
    static func json(_ verdict: AccessVerdict) -> JSONText {
        func members(
            _ outcome: AccessVerdict.Outcome, _ gatekeeper: String, _ reason: String?, _ rule: RuleReference?
        )
            -> [(String, JSONText)]
        {
            var members: [(String, JSONText)] = [
                ("outcome", .string(outcome.rawValue)), ("gatekeeper", .string(gatekeeper)),
            ]
            if let reason { members.append(("reason", .string(reason))) }
            if let rule { members.append(("rule", .string(rule.description))) }
            return members
        }
        let steps = verdict.steps.map {
            JSONText.object(members($0.outcome, $0.gatekeeper, $0.reason, $0.rule))
        }
        return .object(
            members(verdict.outcome, verdict.gatekeeper, verdict.reason, verdict.rule) + [
                ("steps", .array(steps))
            ])
    }
}
