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
