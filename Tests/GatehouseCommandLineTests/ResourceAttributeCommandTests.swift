import Foundation
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// `check` on a service whose resources' owners come from its `"resourceAttributes"`: a caller's
/// `--attr owner=...` cannot claim a document.
@Suite("check with resource attributes")
struct ResourceAttributeCommandTests {
    static let configuration = """
        { "services": { "docs": {
            "loader": { "type": "memory", "resources": { "docs/plan.md": "plan" } },
            "resourceAttributes": { "type": "json", "path": "owners.json" },
            "gatekeepers": [{ "type": "file", "path": "docs.rules" }] } } }
        """

    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(configuration: configuration)
        try Data("allow * write docs/* if owner={subject}\n".utf8)
            .write(to: folder.url.appendingPathComponent("docs.rules"))
        try Data(#"{ "docs/plan.md": { "owner": "alice" } }"#.utf8)
            .write(to: folder.url.appendingPathComponent("owners.json"))
        return folder
    }

    static func check(_ folder: TemporaryDirectory, _ extra: [String]) async -> Captured {
        await Captured.run(
            ["check", "--config", folder.configuration, "--action", "write"] + extra + ["docs/plan.md"])
    }

    @Test func theOwnerFromTheSourceIsAllowedAndAClaimedOwnerIsNot() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        #expect(await Self.check(folder, ["--subject", "alice"]).status == 0)
        let claimed = await Self.check(folder, ["--subject", "bob", "--attr", "owner=bob"])
        #expect(claimed.status == 3)
        #expect(claimed.err.joined().contains("no rule in docs.rules allows"))
    }

    @Test func aMissingSourceFileFailsTheCheckAndSaysWhy() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("owners.json"))
        let run = await Self.check(folder, ["--subject", "alice"])
        #expect(run.status != 0)
        #expect(
            (run.out + run.err).joined(separator: "\n").contains(
                "owners.json: cannot read: No such file or directory"))
    }
}
