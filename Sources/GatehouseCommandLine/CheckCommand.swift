import Foundation
import GatehouseComposition
import GatehouseCore

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
