import Foundation
import Testing

@testable import GatehouseCommandLine

/// `gatehouse plan --sql --dialect` writes the expression for the database named, SQLite by
/// default; a dialect it does not offer is a usage error with a did-you-mean.
@Suite("gatehouse plan --dialect")
struct PlanDialectTests {
    static let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/configurations/documents.json").path

    static func plan(_ options: [String]) async -> Captured {
        await Captured.run(["plan", "--config", config, "--subject", "erin", "--sql"] + options)
    }

    @Test func postgresqlQuotesTheColumnWithDoubleQuotesAndMatchesWithLike() async {
        let run = await Self.plan(["--column", "docs.name", "--dialect", "postgresql"])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out == [
                #"(("docs"."name" LIKE 'docs/%' OR "docs"."name" LIKE 'users/erin/%') AND NOT ("docs"."name" LIKE 'tenants/%/secrets/%'))"#
            ])
    }

    @Test func sqliteIsTheDefaultAndCanBeNamed() async {
        let byDefault = await Self.plan([])
        let named = await Self.plan(["--dialect", "sqlite"])
        #expect(byDefault.status == 0 && named.status == 0)
        #expect(byDefault.out == named.out)
        #expect(named.out.first?.contains("`resource` GLOB 'docs/*'") == true, "\(named.out)")
    }

    @Test(arguments: [
        ("postgres", " (did you mean 'postgresql'?)"), ("sqlite3", " (did you mean 'sqlite'?)"),
        ("mysql", ""),
        ("", ""),
    ])
    func aDialectNotOfferedIsAUsageErrorWithADidYouMean(_ dialect: String, _ suggestion: String) async {
        let run = await Self.plan(["--dialect", dialect])
        #expect(run.status == 2)
        #expect(run.out.isEmpty)
        #expect(
            run.err.first
                == "error: --dialect \"\(dialect)\" is not a dialect\(suggestion); give sqlite or postgresql",
            "\(run.err)")
    }

    @Test func aDialectWithoutSQLIsAUsageError() async {
        let run = await Captured.run(["plan", "--config", Self.config, "--dialect", "postgresql"])
        #expect(run.status == 2)
        #expect(run.err.first == "error: --dialect names the database of --sql; add --sql", "\(run.err)")
    }
}
