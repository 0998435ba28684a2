import Foundation
import GatehouseComposition
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// `gatehouse check` explains a rules denial with the nearest rules: indented lines after the
/// denial, and `nearMisses` inside the JSON verdict; masked values in neither.
@Suite("check: why not")
struct CheckWhyNotTests {
    static let configuration = #"""
        { "services": { "docs": { "loader": { "type": "memory", "resources": { "docs/a": "A" } },
            "gatekeepers": [ { "type": "file", "path": "documents.rules" } ] } },
          "decisionLog": { "path": "decisions.jsonl", "mask": ["device"] } }
        """#

    static let rules = """
        group  editors  alice bob
        allow  @editors write   docs/*
        allow  *        read    docs/*   if device=managed
        allow  *        read    tenants/{tenant}/*

        """

    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(configuration: configuration)
        try Data(rules.utf8).write(to: folder.url.appendingPathComponent("documents.rules"))
        return folder
    }

    @Test func checkTextListsTheNearestRulesUnderTheDenial() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Captured.run([
            "check", "--config", folder.configuration, "--subject", "erin", "--action", "write", "docs/a",
        ])
        #expect(run.status == 3)
        #expect(run.err.first == "denied by file: no rule in documents.rules allows", "\(run.err)")
        #expect(run.err.contains("  nearest rules:"), "\(run.err)")
        #expect(run.err.contains("    documents.rules:2: erin is not a member of @editors"), "\(run.err)")
        #expect(run.err.allSatisfy { $0.count <= 100 }, "\(run.err)")
    }

    @Test func checkJSONHasThemInTheVerdictWithoutMaskedValues() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Captured.run([
            "check", "--json", "--config", folder.configuration, "--subject", "erin", "--attr",
            "device=laptop-42", "docs/a",
        ])
        #expect(run.status == 3)
        let text = run.out.joined()
        #expect(
            text.contains(
                #""nearMisses":["documents.rules:3: the condition device=managed is not met (device is (masked))"]"#
            ),
            "\(text)")
        #expect(!text.contains("laptop-42"), "\(text)")
    }

    @Test func anAllowedCheckListsNone() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Captured.run([
            "check", "--json", "--config", folder.configuration, "--subject", "alice", "--action", "write",
            "docs/a",
        ])
        #expect(run.status == 0)
        #expect(!run.out.joined().contains("nearMisses"), "\(run.out)")
    }
}
