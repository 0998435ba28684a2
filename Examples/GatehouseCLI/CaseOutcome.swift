/// How one case of a `gatehouse test` table came out: the decision `check` would print for its
/// request, held against what the case expects.
///
/// A case holds when the decision is the expected one and, when the case names a `gate`, that
/// gate decided: for a denial the gate that refused, for an allow the last gate asked (as audit
/// records name it). A gate that fails (a rules file missing or malformed) fails the case
/// whatever it expects: the request is denied to fail closed, but a table that passed on a
/// broken rules file would prove nothing.
struct CaseOutcome {
    var testCase: TestTable.Case
    /// The decision, as `check` reports it; for an allow, `gate` is the last gate asked.
    var report: Report

    /// Decides how `testCase` came out from `report`; `lastGate` is the service's last gate.
    init(_ testCase: TestTable.Case, report: Report, lastGate: String?) {
        self.testCase = testCase
        self.report = report
        if report.allowed == true, report.error == nil { self.report.gate = lastGate }
    }

    /// Whether the case holds.
    var passed: Bool {
        guard report.error == nil, report.gateFailure != true, let allowed = report.allowed else {
            return false
        }
        guard allowed == (testCase.expect == .allow) else { return false }
        return testCase.gate.map { $0 == report.gate } ?? true
    }

    /// What the case expects, for people: `allow`, `deny`, or `deny by gate "rules"`.
    var expected: String {
        testCase.expect.rawValue + (testCase.gate.map { " by gate \(Self.quoted($0))" } ?? "")
    }

    /// What happened, for people: `allow by gate "rules"`, `deny by gate "team": reason`, or
    /// `a failure of gate "rules": reason`. Echoed text is escaped.
    var got: String {
        if let error = report.error { return "an error: \(printable(error))" }
        let gate = Self.quoted(report.gate ?? "?")
        let reason = printable(report.reason ?? "")
        if report.gateFailure == true { return "a failure of gate \(gate): \(reason)" }
        return report.allowed == true ? "allow by gate \(gate)" : "deny by gate \(gate): \(reason)"
    }

    /// The case's line: `pass  NAME`, or `FAIL  NAME: expected ..., got ...`.
    var line: String {
        let name = printable(testCase.name)
        return passed ? "pass  \(name)" : "FAIL  \(name): expected \(expected), got \(got)"
    }

    /// The request, service and instant of the case, for the line under a failure.
    var requestLine: String {
        let at = testCase.at.map { ", at \(printable($0.text))" } ?? ""
        return
            "      request: \(printable(report.request.description)) (service \(printable(report.service))\(at))"
    }

    /// The case as a JSON object: its name, whether it passed, what it expected, then the
    /// decision's members as `check --json` prints them (without `command`).
    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("name", .string(testCase.name)),
            ("passed", .bool(passed)),
            ("expect", .string(testCase.expect.rawValue)),
        ]
        if let gate = testCase.gate { members.append(("expectGate", .string(gate))) }
        if let at = testCase.at { members.append(("at", .string(at.text))) }
        members += report.members.filter { $0.0 != "command" }
        return .object(members)
    }

    /// `"name"` with the name escaped for one line of text.
    private static func quoted(_ name: String) -> String {
        "\"\(printable(name))\""
    }
}
