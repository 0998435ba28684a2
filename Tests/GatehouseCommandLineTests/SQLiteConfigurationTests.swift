import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine
@testable import GatehouseSQLite

/// The command's `sqlite` loader in a configuration: a table whose owner column is the service's
/// resource attributes, so `gatehouse list` pushes the owner predicate down and lists exactly
/// the caller's documents and the public ones; validation opens nothing.
@Suite("A sqlite loader in a configuration")
struct SQLiteConfigurationTests {
    static let rules = """
        allow * list *
        allow * read docs/* if owner={subject}
        allow * read public/*

        """

    /// A folder with `docs.sqlite` (alice and bob own three documents each, two are public),
    /// `docs.rules`, and a configuration whose loader is `loader`.
    static func folder(loader: String = Self.loader, extra: String = "") async throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(
            configuration: """
                { "services": { "docs": {
                    "loader": \(loader),\(extra)
                    "gatekeepers": [{ "type": "file", "path": "docs.rules" }] } } }
                """)
        _ = try folder.write("docs.rules", Self.rules)
        let table = try SQLiteLoader(
            path: folder.path("docs.sqlite"), attributeColumns: ["owner": "owner_id"])
        for owner in ["alice", "bob"] {
            for index in 1...3 {
                try await table.store(Data(), for: "docs/\(owner)-\(index)", attributes: ["owner": owner])
            }
        }
        try await table.store(Data(), for: "public/a", attributes: ["owner": "bob"])
        try await table.store(Data(), for: "public/b")
        return folder
    }

    static let loader =
        #"{ "type": "sqlite", "path": "docs.sqlite", "attributeColumns": { "owner": "owner_id" } }"#

    @Test func listShowsExactlyTheCallersDocumentsAndThePublicOnes() async throws {
        let folder = try await Self.folder()
        defer { folder.cleanUp() }
        let alice = await Captured.run(["list", "--config", folder.configuration, "--subject", "alice", ""])
        #expect(alice.status == 0, "\(alice.err) \(alice.out)")
        #expect(
            alice.out.filter { !$0.isEmpty } == [
                "docs/alice-1", "docs/alice-2", "docs/alice-3", "public/a", "public/b",
            ])
        // A claimed owner is not the resource's.
        let mallory = await Captured.run([
            "list", "--config", folder.configuration, "--subject", "mallory", "--attr", "owner=alice", "docs",
        ])
        #expect(mallory.status == 0, "\(mallory.err)")
        #expect(mallory.out.joined().isEmpty, "\(mallory.out)")
        let load = await Captured.run([
            "load", "--config", folder.configuration, "--subject", "mallory", "--attr", "owner=bob",
            "docs/bob-1",
        ])
        #expect(load.status == 3, "\(load.err)")
    }

    /// `plan --sql` over a service whose loader is the command's `sqlite` writes the SQL for that
    /// table: its `name` column and its attribute columns, behind a cache too; run on the table,
    /// it selects exactly what `list` shows.
    @Test(arguments: ["", #" "cache": { "countLimit": 10 },"#])
    func planSQLReadsTheLoadersOwnColumnsAndSelectsWhatListShows(cache: String) async throws {
        let folder = try await Self.folder(extra: cache)
        defer { folder.cleanUp() }
        let plan = await Captured.run([
            "plan", "--config", folder.configuration, "--subject", "alice", "--sql",
        ])
        #expect(plan.status == 0, "\(plan.err)")
        let sql = try #require(plan.out.first)
        #expect(
            sql.contains("`name` GLOB 'docs/*' AND (`owner_id` IS NOT NULL AND `owner_id` = 'alice')"),
            "\(sql)")
        let database = try SQLiteDatabase(path: folder.path("docs.sqlite"))
        let selected = try database.execute("SELECT name FROM resources WHERE \(sql) ORDER BY name").map {
            String(decoding: $0[0], as: UTF8.self)
        }
        let listed = await Captured.run(["list", "--config", folder.configuration, "--subject", "alice", ""])
        #expect(selected == listed.out.filter { !$0.isEmpty })
        #expect(selected.count == 5)
        // Given columns win.
        let renamed = await Captured.run([
            "plan", "--config", folder.configuration, "--subject", "alice", "--sql", "--column", "path",
            "--attribute-column", "owner=owner_name",
        ])
        #expect(renamed.out.first?.contains("`path` GLOB 'docs/*' AND (`owner_name` IS NOT NULL") == true)
    }

    @Test func describeNamesTheTableAndTheLoaderAsTheAttributeSource() async throws {
        let folder = try await Self.folder()
        defer { folder.cleanUp() }
        let described = await Captured.run(["describe", folder.configuration])
        #expect(described.status == 0, "\(described.err) \(described.out)")
        let text = described.out.joined(separator: "\n")
        #expect(
            text.contains("loader: sqlite: table resources in docs.sqlite (owner in owner_id)"), "\(text)")
        #expect(text.contains("resource attributes: the loader's own"), "\(text)")
    }

    @Test func aSecondAttributeSourceOrABadSettingIsRefusedAtItsPath() async throws {
        let both = try await Self.folder(
            extra: #" "resourceAttributes": { "type": "json", "path": "o.json" },"#)
        defer { both.cleanUp() }
        let refused = await Captured.run(["validate", both.configuration])
        #expect(refused.status == 1)
        #expect(
            refused.err.joined().contains(
                "services.docs.resourceAttributes: the loader \"sqlite\" holds its resources' attributes itself"
            ),
            "\(refused.err)")
        let bad = try await Self.folder(
            loader:
                #"{ "type": "sqlite", "path": "file:docs.sqlite", "attributeColumns": { "owner": "owner id" } }"#
        )
        defer { bad.cleanUp() }
        let badRun = await Captured.run(["validate", bad.configuration])
        #expect(badRun.status == 1)
        let text = badRun.err.joined(separator: "\n")
        #expect(text.contains("services.docs.loader.path: cannot open \"file:docs.sqlite\""), "\(text)")
        #expect(text.contains("services.docs.loader.attributeColumns: the column \"owner id\""), "\(text)")
    }

    @Test func validateOpensNoDatabase() async throws {
        let folder = try TemporaryDirectory(
            configuration: """
                { "services": { "docs": {
                    "loader": { "type": "sqlite", "path": "new.sqlite" },
                    "gatekeepers": [{ "type": "file", "path": "docs.rules" }] } } }
                """)
        defer { folder.cleanUp() }
        _ = try folder.write("docs.rules", Self.rules)
        let validated = await Captured.run(["validate", folder.configuration])
        #expect(validated.status == 0, "\(validated.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("new.sqlite")))
        // The first use opens (and makes) it.
        let listed = await Captured.run(["list", "--config", folder.configuration, "--subject", "alice", ""])
        #expect(listed.status == 0, "\(listed.err)")
        #expect(FileManager.default.fileExists(atPath: folder.path("new.sqlite")))
    }
}
