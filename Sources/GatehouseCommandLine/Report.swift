import Foundation
import GatehouseComposition
import GatehouseCore

/// What a request command found, as text or JSON; masked values show as `(masked)`, in reasons too.
struct Report {
    var command: String
    var service: String
    var request: AccessRequest
    /// The attribute keys whose values are never shown.
    var mask: Set<String> = []
    var allowed: Bool?
    /// The deciding gatekeeper: for a denial the one that refused, for an allow the last one.
    var gatekeeper: String?
    var reason: String?
    /// The deciding rule (`file:line`), when the gatekeeper knows it.
    var rule: String?
    var failed: Bool?
    var verdict: AccessVerdict?
    var error: String?
    var bytes: Int?
    var output: String?
    var content: String?
    var contentBase64: String?
    var keys: [String]?

    /// The exit status of `check` for this report: ok, denied, or error.
    var status: ExitStatus { error != nil ? .error : allowed == true ? .ok : .denied }

    mutating func record(_ verdict: AccessVerdict) {
        self.verdict = verdict
        allowed = verdict.isAllowed
        gatekeeper = verdict.gatekeeper
        reason = verdict.reason
        rule = verdict.rule?.description
        if !verdict.isAllowed { failed = verdict.outcome == .failed }
    }

    mutating func record(_ denied: AccessDenied) {
        allowed = false
        gatekeeper = denied.gatekeeper
        reason = denied.reason
        rule = denied.rule?.description
        failed = denied.isFailure
    }

    /// What may be shown of the request: its masked values replaced.
    var redaction: Redaction { Redaction(mask: mask, request: request) }

    /// The request's attributes, masked values replaced.
    var attributes: [(key: String, value: String)] {
        redaction.request.attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `alice read "docs/a" [tenant=acme, token=(masked)]`, escaped for one line; when the service
    /// takes attributes from its resources, each value says whose it is:
    /// `[owner=alice (resource), tenant=acme (caller)]`.
    var requestText: String {
        var text = "\(request.subject ?? "(no subject)") \(request.action) \"\(request.resource)\""
        if !attributes.isEmpty {
            let pairs = attributes.map { "\($0.key)=\($0.value)\(request.origin(of: $0.key))" }
            text += " [\(pairs.joined(separator: ", "))]"
        }
        return printable(text)
    }

    /// Where each attribute came from: `"resource"` (the service took it from its resources) or
    /// `"caller"`.
    var origins: [(String, JSONText?)] {
        attributes.map {
            ($0.key, .string(request.resourceAttributeNames.contains($0.key) ? "resource" : "caller"))
        }
    }

    /// ``requestText`` and the service: `alice read "docs/a" (service docs)`.
    var requestInService: String { "\(requestText) (service \(printable(service)))" }

    /// `text` with every masked attribute value in it replaced.
    func hiding(_ text: String) -> String { redaction.erased(text) }

    var json: String { JSONText.object(members).text }

    /// The JSON members, in a fixed order.
    var members: [(String, JSONText?)] {
        [
            ("command", .string(command)),
            ("service", .string(service)),
            (
                "request",
                .object([
                    ("subject", request.subject.map { .string($0) } ?? .null),
                    ("action", .string(request.action.rawValue)),
                    ("resource", .string(request.resource)),
                    ("attributes", .object(attributes.map { ($0.key, .string($0.value)) })),
                    ("origins", .object(origins)),
                ])
            ),
            ("allowed", allowed.map { .bool($0) }),
            ("gatekeeper", gatekeeper.map { .string($0) }),
            ("reason", reason.map { .string(hiding($0)) }),
            ("rule", rule.map { .string($0) }),
            ("failed", failed.map { .bool($0) }),
            ("verdict", verdict.map(json)),
            ("error", error.map { .string(hiding($0)) }),
            ("bytes", bytes.map { .number($0) }),
            ("output", output.map { .string($0) }),
            ("content", content.map { .string($0) }),
            ("contentBase64", contentBase64.map { .string($0) }),
            ("keys", keys.map { .array($0.map { .string($0) }) }),
        ]
    }

    /// The verdict as `AccessVerdict` encodes itself, masked values hidden.
    private func json(_ verdict: AccessVerdict) -> JSONText {
        func members(
            _ outcome: AccessVerdict.Outcome, _ gatekeeper: String, _ reason: String?, _ rule: RuleReference?
        ) -> [(String, JSONText?)] {
            [
                ("outcome", .string(outcome.rawValue)), ("gatekeeper", .string(gatekeeper)),
                ("reason", reason.map { .string(hiding($0)) }),
                ("rule", rule.map { .string($0.description) }),
            ]
        }
        let steps = verdict.steps.map {
            JSONText.object(members($0.outcome, $0.gatekeeper, $0.reason, $0.rule))
        }
        let nearMisses = verdict.nearMisses.map { JSONText.string(hiding($0)) }
        return .object(
            members(verdict.outcome, verdict.gatekeeper, verdict.reason, verdict.rule)
                + [("steps", .array(steps)), ("nearMisses", nearMisses.isEmpty ? nil : .array(nearMisses))])
    }
}

extension PreparedRequest {
    /// Finishes an operation that threw: a denial exits 3, a loader failure (after an allow) 1.
    func finish(_ report: Report, after error: any Error) -> ExitStatus {
        var report = report
        if let denied = error as? AccessDenied {
            report.record(denied)
            return finish(report, status: .denied)
        }
        report.allowed = true
        report.error = "the loader failed: \(describe(error))"
        return finish(report, status: .error)
    }

    /// Prints the report (JSON, or its outcome's line: `done` of it for a success) and returns `status`;
    /// the request shown is the one the gatekeepers saw, once the gate has decided it.
    func finish(_ report: Report, status: ExitStatus, done: ((Report) -> String)? = nil) -> ExitStatus {
        var report = report
        report.request = seen.take(of: service.name) ?? report.request
        let console = commands.console
        if json {
            console.out(report.json)
            return status
        }
        let gatekeeper = printable(report.gatekeeper ?? "?")
        let shown = { (text: String?) in printable(report.hiding(text ?? "")) }
        switch status {
        case .ok:
            let rule = report.rule.map { " by \(gatekeeper) (\(printable($0)))" } ?? ""
            console.out(done?(report) ?? "allowed\(rule): \(report.requestInService)")
            return status
        case .denied:
            // A rules file's reason names its line already ("avatars.rules:5 denies").
            let what =
                report.failed == true ? "denied: gatekeeper \(gatekeeper) failed" : "denied by \(gatekeeper)"
            console.err("\(what): \(shown(report.reason))")
        default:
            console.err("error: \(shown(report.error ?? "unknown"))")
        }
        console.err("  request: \(report.requestInService)")
        // Only a decided denial has them.
        let nearMisses = report.verdict?.nearMisses ?? []
        if !nearMisses.isEmpty { console.err("  nearest rules:") }
        for nearMiss in nearMisses { console.err("    \(shown(nearMiss))") }
        return status
    }
}
