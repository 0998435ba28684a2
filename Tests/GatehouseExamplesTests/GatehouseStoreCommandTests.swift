import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse store`, `remove` and `list`: each operation asks the service's gatekeepers with its
/// own action (write, delete, list then read per key), reaches the loader only when allowed, and
/// exits 0 done, 3 denied, 1 error, 2 usage.
@Suite("gatehouse store, remove, list")
struct GatehouseStoreCommandTests {
    static let rules = """
        group editors alice
        allow @editors write docs/*
        allow @editors delete docs/*
        allow *        list  docs
        allow *        read  docs/*
        deny  *        read  docs/secret-*
        """

    /// A folder with `docs/` holding two files, a rules file and a configuration over it.
    struct Fixture {
        let directory: TemporaryDirectory
        var folder: URL { directory.url }
        var config: String { folder.appendingPathComponent("gatehouse.json").path }
        func file(_ key: String) -> URL { folder.appendingPathComponent("data").appendingPathComponent(key) }

        init() throws {
            directory = try TemporaryDirectory()
            let docs = directory.file("data/docs")
            try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
            try Data("plan".utf8).write(to: docs.appendingPathComponent("plan.txt"))
            try Data("salaries".utf8).write(to: docs.appendingPathComponent("secret-pay.txt"))
            try Data(GatehouseStoreCommandTests.rules.utf8).write(
                to: folder.appendingPathComponent("docs.rules"))
            let json = #"""
                { "services": { "docs": { "loader": { "type": "disk", "root": "data" },
                  "cache": { "countLimit": 10 },
                  "gatekeepers": [ { "type": "file", "name": "rules", "path": "docs.rules" } ] } } }
                """#
            try Data(json.utf8).write(to: folder.appendingPathComponent("gatehouse.json"))
        }

        func remove() { directory.cleanUp() }
    }

    @Test func anAllowedStoreWritesTheResourceFromStandardInput() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let run = try await Examples.gatehouse(
            "store", "--config", fixture.config, "--subject", "alice", "docs/new.txt",
            input: Data("draft".utf8))
        #expect(run.status == 0)
        #expect(run.stdout == "stored 5 bytes: alice write \"docs/new.txt\" (service docs)\n")
        #expect(try Data(contentsOf: fixture.file("docs/new.txt")) == Data("draft".utf8))
        let load = try await Examples.command(
            "load", "--config", fixture.config, "--subject", "bob", "docs/new.txt")
        #expect(load.stdout == "draft")
    }

    @Test func aDeniedStoreNeverReachesTheLoaderAndExitsThree() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let input = fixture.folder.appendingPathComponent("input.txt")
        try Data("vandal".utf8).write(to: input)
        let run = try await Examples.command(
            "store", "--config", fixture.config, "--subject", "bob", "--input", input.path, "docs/plan.txt")
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("denied by rules: no rule in docs.rules allows\n"))
        #expect(run.stderr.contains(#"request: bob write "docs/plan.txt" (service docs)"#))
        #expect(try Data(contentsOf: fixture.file("docs/plan.txt")) == Data("plan".utf8))
    }

    @Test func removeDeletesOnlyWhenAllowed() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let denied = try await Examples.command(
            "remove", "--config", fixture.config, "--subject", "bob", "docs/plan.txt")
        #expect(denied.status == 3)
        #expect(FileManager.default.fileExists(atPath: fixture.file("docs/plan.txt").path))
        let allowed = try await Examples.command(
            "remove", "--config", fixture.config, "--subject", "alice", "docs/plan.txt")
        #expect(allowed.status == 0)
        #expect(allowed.stdout == "removed: alice delete \"docs/plan.txt\" (service docs)\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.file("docs/plan.txt").path))
    }

    @Test(arguments: ["docs", "docs/"])
    func listShowsOnlyTheKeysThatMayBeReadAndNeverNamesTheOthers(_ prefix: String) async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let run = try await Examples.command("list", "--config", fixture.config, "--subject", "bob", prefix)
        #expect(run.status == 0)
        #expect(run.stdout == "docs/plan.txt\n")
        #expect(!(run.stdout + run.stderr).contains("secret"))
        let json = try await Examples.command(
            "list", "--json", "--config", fixture.config, "--subject", "bob", prefix)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["keys"] as? [String] == ["docs/plan.txt"])
        #expect((object?["request"] as? [String: Any])?["action"] as? String == "list")
        #expect(!json.stdout.contains("secret"))
    }

    @Test func aDeniedListingExitsThreeAndNamesNoKey() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(
            at: fixture.file("private"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: fixture.file("private/key.txt"))
        let run = try await Examples.command(
            "list", "--config", fixture.config, "--subject", "bob", "private")
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(!run.stderr.contains("key.txt"))
    }

    @Test func storeWithJSONReportsTheBytesAndAnUnreadableInputIsAUsageError() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let run = try await Examples.gatehouse(
            "store", "--json", "--config", fixture.config, "--subject", "alice", "docs/a.txt",
            input: Data("abc".utf8))
        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["bytes"] as? Int == 3)
        #expect(object?["allowed"] as? Bool == true)
        let missing = try await Examples.command(
            "store", "--config", fixture.config, "--subject", "alice", "--input", "/nonexistent/x",
            "docs/a.txt")
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: /nonexistent/x: cannot read: "))
    }

    @Test func theLoaderFailingAfterAnAllowedRemoveExitsOne() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let run = try await Examples.command(
            "remove", "--config", fixture.config, "--subject", "alice", "docs/never-there.txt")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: the loader failed: "))
    }

    @Test func storeRemoveAndListHaveHelpAndRefuseAnAction() async throws {
        for command in ["store", "remove", "list"] {
            let help = try await Examples.command(command, "--help")
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("gatehouse \(command) - "))
            let action = try await Examples.command(command, "--config", "x.json", "--action", "read", "k")
            #expect(action.status == 2)
        }
    }
}
