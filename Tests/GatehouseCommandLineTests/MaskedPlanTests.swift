import Foundation
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// `gatehouse plan` shows a masked attribute's value (`decisionLog.mask`) as `(masked)` inside the
/// patterns it was substituted into, in text and `--json`; `--sql` prints the real value, since
/// the caller asked for a query to run.
@Suite("Masked values in plans")
struct MaskedPlanTests {
    static let secret = "acme-7f3e"

    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(
            configuration: """
                { "services": { "docs": { "loader": { "type": "memory", "resources": {} },
                    "gatekeepers": [{ "type": "file", "path": "docs.rules" }] } },
                  "decisionLog": { "path": "decisions.jsonl", "mask": ["tenant"] } }
                """)
        try Data("allow * read tenants/{tenant}/*\n".utf8).write(
            to: folder.url.appendingPathComponent("docs.rules"))
        return folder
    }

    static func plan(_ folder: TemporaryDirectory, _ extra: [String]) async -> Captured {
        await Captured.run(
            ["plan", "--config", folder.configuration, "--subject", "alice", "--attr", "tenant=\(secret)"]
                + extra)
    }

    @Test func planTextShowsTheMaskedValueAsMasked() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Self.plan(folder, [])
        #expect(run.status == 0)
        #expect(run.out == [#"alice read in docs: "tenants/(masked)/*""#, #"prefixes: "tenants/(masked)/""#])
    }

    @Test func planJSONShowsTheMaskedValueAsMasked() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Self.plan(folder, ["--json"])
        #expect(run.status == 0)
        let text = run.out.joined()
        #expect(!text.contains(Self.secret), "\(text)")
        #expect(
            text.contains(#""prefixes":["tenants/(masked)/"],"residual":{"match":["tenants/(masked)/",""]}"#),
            "\(text)")
    }

    @Test func planSQLPrintsTheRealValueForTheQueryToRun() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Self.plan(folder, ["--sql"])
        #expect(run.status == 0)
        #expect(
            run.out == ["(instr(`resource`, char(0)) = 0 AND `resource` GLOB 'tenants/\(Self.secret)/*')"])
    }
}
