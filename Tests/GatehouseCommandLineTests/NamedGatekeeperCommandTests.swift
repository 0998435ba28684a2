import Foundation
import GatehouseTestSupport
import Testing

/// `plan --sql` and `check`'s nearest rules through gatekeepers a configuration names, as both
/// example configurations name theirs. (When a wrapper held the name, `plan --sql` exited 1,
/// "the gatekeeper 'team', 'office-hours', 'rules' cannot plan", and `check` listed no rule.)
@Suite("The command through named gatekeepers")
struct NamedGatekeeperCommandTests {
    static let configuration = #"""
        { "services": { "docs": { "loader": { "type": "memory", "resources": { "docs/a": "A" } },
            "gatekeepers": [
              { "type": "allowList", "name": "team", "subjects": ["alice", "erin"] },
              { "type": "timeWindow", "name": "office-hours", "timeZone": "UTC", "days": ["mon"],
                "from": "08:00", "to": "20:00" },
              { "type": "file", "name": "rules", "path": "documents.rules" } ] } } }
        """#

    static let rules = """
        group  editors  alice
        allow  @editors read docs/*

        """

    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(configuration: configuration)
        try Data(rules.utf8).write(to: folder.url.appendingPathComponent("documents.rules"))
        return folder
    }

    @Test func planSQLThroughNamedGatekeepersPrintsTheExpression() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Captured.run([
            "plan", "--config", folder.configuration, "--subject", "alice", "--at", "2026-11-30T10:00:00Z",
            "--sql",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == ["(instr(`resource`, char(0)) = 0 AND `resource` GLOB 'docs/*')"], "\(run.out)")
    }

    @Test func checkThroughANamedFileGatekeeperListsTheNearestRules() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Captured.run([
            "check", "--config", folder.configuration, "--subject", "erin", "--at", "2026-11-30T10:00:00Z",
            "docs/a",
        ])
        #expect(run.status == 3)
        #expect(
            run.err == [
                "denied by rules: no rule in documents.rules allows",
                #"  request: erin read "docs/a" (service docs)"#,
                "  nearest rules:",
                "    documents.rules:2: erin is not a member of @editors",
            ], "\(run.err)")
    }
}
