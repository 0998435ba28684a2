import Foundation
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// `gatehouse diff OLD NEW --service NAME` on two configurations: the service's rules files are
/// compared in order; a service missing or whose gatekeepers differ otherwise is a usage error.
@Suite("gatehouse diff of configurations")
struct DiffConfigurationTests {
    static func configuration(_ gatekeepers: String) -> String {
        #"{ "services": { "docs": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": ["#
            + gatekeepers + "] } } }"
    }

    static let old = "group editors alice bob\nallow @editors write docs/*\nallow * read docs/*\n"

    static func folders(_ oldGatekeepers: String, _ newGatekeepers: String, newRules: String) throws -> (
        TemporaryDirectory, TemporaryDirectory
    ) {
        let before = try TemporaryDirectory(configuration: configuration(oldGatekeepers))
        let after = try TemporaryDirectory(configuration: configuration(newGatekeepers))
        _ = try before.write("docs.rules", old)
        _ = try after.write("docs.rules", newRules)
        return (before, after)
    }

    @Test func theServicesRulesFilesAreComparedInOrder() async throws {
        let file = #"{ "type": "file", "path": "docs.rules" }"#
        let (before, after) = try Self.folders(
            file, file, newRules: Self.old + "deny bob write docs/secret/*\n")
        defer {
            before.cleanUp()
            after.cleanUp()
        }
        let run = await Captured.run(["diff", "--service", "docs", before.configuration, after.configuration])
        #expect(run.status == 1, "\(run.err)")
        #expect(
            run.out.first
                == #"bob write: gained nothing; lost "docs/secret/*"; before: docs.rules:2; after: docs.rules:2, docs.rules:4"#,
            "\(run.out)")
        let same = await Captured.run([
            "diff", "--service", "docs", before.configuration, before.configuration,
        ])
        #expect(same.status == 0, "\(same.err)")
    }

    @Test func aServiceMissingFromOneConfigurationIsAUsageError() async throws {
        let file = #"{ "type": "file", "path": "docs.rules" }"#
        let (before, after) = try Self.folders(file, file, newRules: Self.old)
        defer {
            before.cleanUp()
            after.cleanUp()
        }
        let run = await Captured.run(["diff", "--service", "wiki", before.configuration, after.configuration])
        #expect(run.status == 2)
        #expect(run.err.contains { $0.contains("has no service wiki") }, "\(run.err)")
    }

    @Test func aRulesFileGatekeeperAddedInTheNewVersionIsAUsageError() async throws {
        let file = #"{ "type": "file", "path": "docs.rules" }"#
        let (before, after) = try Self.folders(file, file + ", " + file, newRules: Self.old)
        defer {
            before.cleanUp()
            after.cleanUp()
        }
        let run = await Captured.run(["diff", "--service", "docs", before.configuration, after.configuration])
        #expect(run.status == 2)
        #expect(run.err.contains { $0.contains("the gatekeepers differ") }, "\(run.err)")
    }
}
