import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse validate` warns of each rule that never changes a decision, naming the rules that
/// cover it, in text and `--json`, for a rules file and inside a configuration; `--strict` makes
/// a warning exit 1.
@Suite("gatehouse validate: rules that never decide")
struct ValidateNeverDecidesTests {
    static let rules = """
        allow alice read docs/*
        allow bob   read docs/*
        deny  *     *    docs/secret/*
        allow alice read docs/notes
        allow carol read docs/secret/plan
        allow alice read docs/*
        """

    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        _ = try folder.write("docs.rules", rules)
        _ = try folder.write(
            "gatehouse.json",
            """
            {"services": {"docs": {"loader": {"type": "memory", "resources": {}},
              "gatekeepers": [{"type": "file", "name": "rules", "path": "docs.rules"}]}}}
            """)
        return folder
    }

    @Test func aRulesFileIsValidWithAWarningPerRuleThatNeverDecides() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let path = folder.path("docs.rules")
        let run = await Captured.run(["validate", path])
        #expect(run.status == 0)
        #expect(
            run.out == [
                "\(path): valid; 6 rules, 0 groups",
                "docs.rules:4: this rule never changes a decision: docs.rules:1 and docs.rules:6 cover it",
                "docs.rules:5: this rule never changes a decision: docs.rules:3 covers it",
                "docs.rules:6: this rule never changes a decision: docs.rules:1 covers it",
            ])
    }

    @Test func strictMakesAWarningExitOne() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        #expect(await Captured.run(["validate", "--strict", folder.path("docs.rules")]).status == 1)
        _ = try folder.write("docs.rules", "allow alice read docs/*\ndeny * * docs/secret/*")
        #expect(await Captured.run(["validate", "--strict", folder.path("docs.rules")]).status == 0)
    }

    @Test func aConfigurationNamesEachWarningAtItsGatekeepersPlace() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", folder.path("gatehouse.json")])
        #expect(run.status == 0)
        #expect(
            Array(run.out.suffix(3)) == [
                "services.docs.gatekeepers[0]: docs.rules:4: this rule never changes a decision: docs.rules:1 and docs.rules:6 cover it",
                "services.docs.gatekeepers[0]: docs.rules:5: this rule never changes a decision: docs.rules:3 covers it",
                "services.docs.gatekeepers[0]: docs.rules:6: this rule never changes a decision: docs.rules:1 covers it",
            ])
    }

    @Test func jsonListsEachRuleWithTheRulesThatCoverIt() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        for (file, place) in [("docs.rules", nil), ("gatehouse.json", "services.docs.gatekeepers[0]")] {
            let run = await Captured.run(["validate", "--json", folder.path(file)])
            let object = try JSONSerialization.jsonObject(with: Data(run.out.joined(separator: "\n").utf8))
            let never = try #require((object as? [String: Any])?["neverDecides"] as? [[String: Any]])
            #expect(never.map { $0["rule"] as? String } == ["docs.rules:4", "docs.rules:5", "docs.rules:6"])
            #expect(never.first?["coveredBy"] as? [String] == ["docs.rules:1", "docs.rules:6"])
            #expect(never.first?["place"] as? String == place)
        }
    }

    @Test func severalCoveringRulesAreAllNamed() async throws {
        let folder = try Self.folder()
        defer { folder.cleanUp() }
        _ = try folder.write("docs.rules", "allow * read docs/*\nallow a* read docs/*\nallow ann read docs/a")
        let run = await Captured.run(["validate", folder.path("docs.rules")])
        #expect(
            run.out.last
                == "docs.rules:3: this rule never changes a decision: docs.rules:1 and docs.rules:2 cover it")
    }
}
