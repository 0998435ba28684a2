import Foundation
import GatehouseCore
import Testing

@testable import GatehouseCommandLine

/// `gatehouse plan --sql --column` takes only a plain column name, so the SQL it prints can only
/// fail on a misspelt column, never turn true.
@Suite("gatehouse plan --column")
struct PlanColumnTests {
    static let config = "Examples/demo/gatehouse.json"
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: [
        "", "nam e", "\"name\"", "1name", "a.b.c", ".name", "name.", "na-me", "naméé", "name;--",
    ])
    func aColumnThatIsNotAPlainNameIsAUsageError(_ column: String) async {
        let run = await Captured.run([
            "plan", "--config", Self.packageRoot.appendingPathComponent(Self.config).path, "--subject",
            "alice",
            "--sql", "--column", column,
        ])
        #expect(run.status == 2)
        #expect(run.err.first?.contains("is not a plain column name") == true, "\(run.err)")
    }

    @Test(arguments: ["name", "_name", "t.name", "Documents.owner_id2"])
    func aPlainColumnNameIsQuotedAsAnIdentifierOnly(_ column: String) {
        #expect(SQLDialect.isPlainColumn(column))
    }

    @Test func theSQLOfTheShippedConfigurationUsesTheColumnGiven() async {
        let run = await Captured.run([
            "plan", "--config", Self.packageRoot.appendingPathComponent(Self.config).path, "--subject",
            "alice",
            "--at", "2026-11-30T10:00:00Z", "--sql", "--column", "docs.name",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.first?.contains("`docs`.`name` GLOB 'avatars/alice*'") == true, "\(run.out)")
    }

    @Test(arguments: [
        "owner", "owner=", "=owner_id", "owner=owner id", "owner=\"x\"", "owner=1x", "owner=a.b.c",
    ])
    func anAttributeColumnThatIsNotAttrEqualsAPlainNameIsAUsageError(_ pair: String) async {
        let run = await Captured.run([
            "plan", "--config", Self.packageRoot.appendingPathComponent(Self.config).path, "--subject",
            "alice", "--sql", "--attribute-column", pair,
        ])
        #expect(run.status == 2)
        #expect(run.err.first?.contains("is not ATTR=COLUMN") == true, "\(run.err)")
    }

    @Test func anAttributeColumnWithoutSQLIsAUsageError() async {
        let run = await Captured.run([
            "plan", "--config", Self.packageRoot.appendingPathComponent(Self.config).path, "--subject",
            "alice", "--attribute-column", "owner=owner_id",
        ])
        #expect(run.status == 2)
        #expect(run.err.first?.contains("add --sql") == true, "\(run.err)")
    }

    @Test func anAttributeColumnTheSQLDoesNotNeedChangesNothing() async {
        let base = [
            "plan", "--config", Self.packageRoot.appendingPathComponent(Self.config).path, "--subject",
            "alice", "--at", "2026-11-30T10:00:00Z", "--sql",
        ]
        let plain = await Captured.run(base)
        let mapped = await Captured.run(base + ["--attribute-column", "owner=t.owner_id"])
        #expect(plain.status == 0 && mapped.status == 0, "\(mapped.err)")
        #expect(plain.out == mapped.out)
    }
}
