import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse plan`: the plan of a configured service in text, JSON and SQL.
@Suite("The plan command")
struct GatehousePlanCommandTests {
    /// A folder with a configuration of one service, whose gatekeepers are `gatekeepers`.
    static func configuration(_ gatekeepers: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let json = """
            { "services": { "docs": {
                "loader": { "type": "memory", "resources": { "a": "A" } },
                "gatekeepers": [\(gatekeepers)] } } }
            """
        try Data(json.utf8).write(to: folder.file("gatehouse.json"))
        return folder
    }

    static let lists = """
        { "type": "allowList", "resources": ["docs/*", "it's_100%"], "subjects": ["alice"] },
        { "type": "not", "policy": { "type": "allowList", "resources": ["docs/secret/*"] } }
        """

    @Test func sqlPrintsOneLineOverTheColumnWithLiteralsQuotedAndLikeEscaped() async throws {
        let folder = try Self.configuration(Self.lists)
        let run = try await Examples.command([
            "plan", "--config", folder.path("gatehouse.json"), "--subject", "alice", "--sql", "--column",
            "name",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout
                == "(instr(`name`, char(0)) = 0 AND ((`name` GLOB 'docs/*' OR `name` = 'it''s_100%') AND NOT (`name` GLOB 'docs/secret/*')))"
                + "\n")
        let bob = try await Examples.command([
            "plan", "--config", folder.path("gatehouse.json"), "--subject", "bob", "--sql",
        ])
        #expect(bob.stdout == "(1 = 0)\n")
    }

    @Test func jsonAndTextShowTheResidualAndThePrefixes() async throws {
        let folder = try Self.configuration(Self.lists)
        let json = try await Examples.command([
            "plan", "--config", folder.path("gatehouse.json"), "--subject", "alice", "--json",
        ])
        #expect(json.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let plan = try #require(object["plan"] as? [String: Any])
        #expect(plan["exact"] as? Bool == true)
        #expect(plan["prefixes"] as? [String] == ["docs/", "it's_100%"])
        let text = try await Examples.command([
            "plan", "--config", folder.path("gatehouse.json"), "--subject", "alice",
        ])
        #expect(
            text.stdout.hasPrefix(
                #"alice read in docs: all(any("docs/*", "it's_100%"), not("docs/secret/*"))"#))
    }

    @Test func aGatekeeperThatCannotPlanMakesSQLFailNamingIt() async throws {
        let folder = try Self.configuration(
            #"{ "type": "remote", "name": "opa", "protocol": "opa", "url": "http://127.0.0.1:9/v1/data/x" }"#)
        let run = try await Examples.command([
            "plan", "--config", folder.path("gatehouse.json"), "--subject", "alice", "--sql",
        ])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("'opa' cannot plan"), "\(run.stderr)")
    }

    @Test func aTimeWindowIsFoldedAtTheInstantOfAt() async throws {
        let folder = try Self.configuration(
            #"{ "type": "timeWindow", "timeZone": "UTC", "days": ["mon"], "from": "09:00", "to": "17:00" }"#)
        for (instant, expected) in [
            ("2025-12-29T10:00:00Z", "(instr(`resource`, char(0)) = 0)\n"),
            ("2025-12-29T18:00:00Z", "(1 = 0)\n"),
        ] {
            let run = try await Examples.command([
                "plan", "--config", folder.path("gatehouse.json"), "--at", instant, "--sql",
            ])
            #expect(run.stdout == expected, "\(instant): \(run.stderr)")
        }
    }

    @Test func jsonAndSQLTogetherAreAUsageError() async throws {
        let folder = try Self.configuration(Self.lists)
        let run = try await Examples.command([
            "plan", "--config", folder.path("gatehouse.json"), "--json", "--sql",
        ])
        #expect(run.status == 2)
    }
}
