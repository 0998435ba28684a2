import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse test --coverage`: each rule that decided no case, with why not against the nearest
/// case, in text and `--json`; a rule counts only for cases that reached its gatekeeper.
@Suite("gatehouse test --coverage")
struct TestCoverageTests {
    static let rules = """
        group editors erin
        allow  alice     read   docs/*
        allow  @editors  write  docs/*
        allow  bob       read   public/*
        deny   *         *      docs/secret/*
        allow  alice     read   docs/notes
        """

    /// A folder with the rules, a configuration whose first gatekeeper lets only alice and bob
    /// through, and a table of `cases`.
    static func folder(cases: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        _ = try folder.write("docs.rules", rules)
        _ = try folder.write(
            "gatehouse.json",
            """
            {"services": {"docs": {"loader": {"type": "memory", "resources": {}},
              "gatekeepers": [
                {"type": "allowList", "name": "team", "resources": ["*"], "subjects": ["alice", "bob"]},
                {"type": "file", "name": "rules", "path": "docs.rules"}]}}}
            """)
        _ = try folder.write("cases.json", #"{"config": "gatehouse.json", "cases": [\#(cases)]}"#)
        return folder
    }

    static let cases = """
        {"name": "alice reads a doc", "subject": "alice", "resource": "docs/a", "expect": "allow"},
        {"name": "alice cannot read a secret", "subject": "alice", "resource": "docs/secret/k", "expect": "deny"},
        {"name": "erin cannot write", "subject": "erin", "action": "write", "resource": "docs/a", "expect": "deny"}
        """

    @Test func eachRuleThatDecidedNoCaseIsNamedWithWhyNotAgainstTheNearestCase() async throws {
        let folder = try Self.folder(cases: Self.cases)
        defer { folder.cleanUp() }
        let run = await Captured.run(["test", folder.path("cases.json"), "--coverage"])
        #expect(run.status == 0, "\(run.err)")
        let coverage = Array(run.out.drop { !$0.hasPrefix("coverage:") }.prefix(4))
        #expect(
            coverage == [
                "coverage: 5 rules, 2 decided a case, 3 decided none",
                // Erin's case never reached the rules: the team gatekeeper refused her first.
                "  docs.rules:3: decided no case; nearest \"alice reads a doc\": the action read is not write; "
                    + "alice is not a member of @editors",
                "  docs.rules:4: decided no case; nearest \"alice reads a doc\": the resource does not match "
                    + "public/*; alice is not bob",
                "  docs.rules:6: decided no case; nearest \"alice reads a doc\": the resource does not match "
                    + "docs/notes",
            ])
    }

    @Test func aMatchingRuleThatAnotherDecidedBeforeSaysWhich() async throws {
        let folder = try Self.folder(
            cases:
                #"{"name": "alice reads the notes", "subject": "alice", "resource": "docs/notes", "expect": "allow"}"#
        )
        defer { folder.cleanUp() }
        let run = await Captured.run(["test", folder.path("cases.json"), "--coverage"])
        #expect(
            run.out.contains(
                "  docs.rules:6: decided no case; nearest \"alice reads the notes\": it matches, but docs.rules:2 decides"
            ))
    }

    @Test func jsonHoldsTheCountsTheUncoveredRulesAndWhyNot() async throws {
        let folder = try Self.folder(cases: Self.cases)
        defer { folder.cleanUp() }
        let run = await Captured.run(["test", folder.path("cases.json"), "--coverage", "--json"])
        let object = try JSONSerialization.jsonObject(
            with: Data(run.out.joined(separator: "\n").utf8), options: [])
        let coverage = try #require((object as? [String: Any])?["coverage"] as? [String: Any])
        #expect(coverage["rules"] as? Int == 5)
        #expect(coverage["decided"] as? Int == 2)
        #expect(coverage["uncovered"] as? [String] == ["docs.rules:3", "docs.rules:4", "docs.rules:6"])
        let first = try #require((coverage["whyNot"] as? [[String: Any]])?.first)
        #expect(first["rule"] as? String == "docs.rules:3")
        #expect(first["nearestCase"] as? String == "alice reads a doc")
    }

    @Test func aRulesFileThatCannotBeReadIsNamedNotCountedAsCovered() async throws {
        let folder = try Self.folder(cases: Self.cases)
        defer { folder.cleanUp() }
        _ = try folder.write("docs.rules", "allow alice read")
        let run = await Captured.run(["test", folder.path("cases.json"), "--coverage"])
        #expect(run.status == 1)
        #expect(run.out.contains("coverage: 0 rules, 0 decided a case, 0 decided none"))
        #expect(run.out.contains { $0.hasPrefix("  docs.rules: not counted: ") })
    }

    @Test func withoutTheFlagNothingAboutCoverageIsPrinted() async throws {
        let folder = try Self.folder(cases: Self.cases)
        defer { folder.cleanUp() }
        let text = await Captured.run(["test", folder.path("cases.json")])
        #expect(!text.out.contains { $0.hasPrefix("coverage") })
        let json = await Captured.run(["test", folder.path("cases.json"), "--json"])
        #expect(!json.out.joined().contains("\"coverage\""))
    }
}
