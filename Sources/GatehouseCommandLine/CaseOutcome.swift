/// A `gatehouse test` case against its decision. A failing gatekeeper fails the case whatever it
/// expects: a table that passed on a broken rules file would prove nothing.
struct CaseOutcome {
    var testCase: TestTable.Case
    var report: Report

    var passed: Bool {
        guard report.error == nil, report.failed != true, report.allowed == (testCase.expect == .allow) else {
            return false
        }
        return testCase.gatekeeper.map { $0 == report.gatekeeper } ?? true
    }

    /// What the case expects, for people: `allow`, `deny`, or `deny by gatekeeper "rules"`.
    var expected: String {
        testCase.expect.rawValue + (testCase.gatekeeper.map { " by gatekeeper \(Self.quoted($0))" } ?? "")
    }

    /// What happened, for people: `allow by gatekeeper "rules"`, `deny by gatekeeper "team": reason`.
    var got: String {
        if let error = report.error { return "an error: \(printable(report.hiding(error)))" }
        let gatekeeper = Self.quoted(report.gatekeeper ?? "?")
        let reason = printable(report.hiding(report.reason ?? ""))
        if report.failed == true { return "a failure of gatekeeper \(gatekeeper): \(reason)" }
        return report.allowed == true
            ? "allow by gatekeeper \(gatekeeper)" : "deny by gatekeeper \(gatekeeper): \(reason)"
    }

    /// The case's line: `pass  NAME`, or `FAIL  NAME: expected ..., got ...`.
    var line: String {
        let name = printable(testCase.name)
        return passed ? "pass  \(name)" : "FAIL  \(name): expected \(expected), got \(got)"
    }

    /// The request, service and instant of the case, for the line under a failure.
    var requestLine: String {
        let at = testCase.at.map { ", at \(printable($0.text))" } ?? ""
        return "      request: \(report.requestText) (service \(printable(report.service))\(at))"
    }

    /// The case as JSON: name, passed, expect, then the decision as `check --json` has it.
    var json: JSONText {
        .object(
            [
                ("name", .string(testCase.name)),
                ("passed", .bool(passed)),
                ("expect", .string(testCase.expect.rawValue)),
                ("expectGatekeeper", testCase.gatekeeper.map { .string($0) }),
                ("at", testCase.at.map { .string($0.text) }),
            ] + report.members.filter { $0.0 != "command" })
    }

    private static func quoted(_ name: String) -> String { "\"\(printable(name))\"" }
}
