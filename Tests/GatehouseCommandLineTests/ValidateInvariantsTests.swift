import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse validate` reports a broken invariant with the invariant's line, a counterexample
/// request and the rule that allows it: for a configuration's service, and for a rules file with
/// `--invariants`.
@Suite("gatehouse validate: invariants")
struct ValidateInvariantsTests {
    static func folder(rules: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        _ = try folder.write("guard.invariants", "# promises\nnever * read secrets/*\n")
        _ = try folder.write("docs.rules", rules)
        _ = try folder.write(
            "gatehouse.json",
            """
            {"services": {"docs": {"loader": {"type": "memory", "resources": {}},
              "invariants": "guard.invariants",
              "gatekeepers": [{"type": "file", "name": "rules", "path": "docs.rules"}]}}}
            """)
        return folder
    }

    static let breach =
        "docs.rules:2: breaks the invariant guard.invariants:2 (never * read secrets/*): it allows subject "
        + "\"secrets\", action \"read\", resource \"secrets/x\""

    @Test func aConfigurationWhoseRulesBreakAnInvariantIsInvalid() async throws {
        let folder = try Self.folder(rules: "allow * read docs/*\nallow * read {subject}/*\n")
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", folder.path("gatehouse.json")])
        #expect(run.status == 1)
        #expect(
            run.err.contains { $0.hasSuffix("services.docs.gatekeepers[0]: " + Self.breach) }, "\(run.err)")
    }

    @Test func aRulesFileOnItsOwnIsCheckedAgainstTheInvariantsGiven() async throws {
        let folder = try Self.folder(rules: "allow * read docs/*\nallow * read {subject}/*\n")
        defer { folder.cleanUp() }
        let rules = folder.path("docs.rules")
        #expect(await Captured.run(["validate", rules]).status == 0)
        let run = await Captured.run(["validate", rules, "--invariants", folder.path("guard.invariants")])
        #expect(run.status == 1)
        #expect(run.err.contains { $0.hasSuffix(Self.breach) }, "\(run.err)")
    }

    @Test func rulesThatKeepTheInvariantsAreValid() async throws {
        let folder = try Self.folder(rules: "allow * read docs/*\nallow alice read {subject}/*\n")
        defer { folder.cleanUp() }
        #expect(await Captured.run(["validate", folder.path("gatehouse.json")]).status == 0)
        #expect(
            await Captured.run([
                "validate", folder.path("docs.rules"), "--invariants", folder.path("guard.invariants"),
            ]).status == 0)
    }
}
