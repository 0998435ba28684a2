import Foundation
import Testing

@Suite("Example configurations")
struct ExampleConfigurationTests {
    static let documents = "Examples/configurations/documents.json"

    @Test func everyConfigurationUnderExamplesIsValid() throws {
        let examples = Examples.packageRoot.appendingPathComponent("Examples")
        let files =
            FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            // A test table (`*.tests.json`, for `gatehouse test`) is not a configuration.
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".tests.json") } ?? []
        #expect(files.count >= 2)
        for file in files {
            let run = try Examples.gatehouse("validate", file.path)
            #expect(run.status == 0, "\(file.path): \(run.stderr)")
        }
    }

    @Test func anAuditorPassesOutsideOfficeHoursThroughAnyOf() throws {
        let sunday = "2026-11-29T15:00:00Z"
        let auditor = try Examples.gatehouse(
            "check", "--config", Self.documents, "--service", "reports", "--subject", "auditor-7", "--at",
            sunday,
            "avatars/bob.txt")
        #expect(auditor.status == 0)
        let staff = try Examples.gatehouse(
            "check", "--config", Self.documents, "--service", "reports", "--subject", "bob", "--at", sunday,
            "avatars/bob.txt")
        #expect(staff.status == 3)
        #expect(
            staff.stderr.hasPrefix(
                "denied by hours-or-auditor: no policy allowed (timeWindow: outside Mon–Fri 07:00–19:00 America/New_York; it is Sun 10:00 there; allowList: "
            ))
    }

    @Test func notDeniesDraftsThatTheAllowListMatches() throws {
        let run = try Examples.gatehouse(
            "check", "--config", Self.documents, "--service", "reports", "--subject", "carol", "--at",
            "2026-11-30T15:00:00Z",
            "avatars/carol/private-draft.txt")
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("denied by no-drafts: allowList allows, and not(allowList) inverts it"))
    }

    @Test func theClosedArchiveSaysWhy() throws {
        let run = try Examples.gatehouse(
            "load", "--config", Self.documents, "--service", "archive", "anything")
        #expect(run.status == 3)
        #expect(
            run.stderr.hasPrefix(
                "denied by alwaysDeny: the archive is closed for migration until further notice"))
    }

    @Test func aFileWithSeveralServicesNeedsServiceNamed() throws {
        let run = try Examples.gatehouse("check", "--config", Self.documents, "health")
        #expect(run.status == 2)
        #expect(
            run.stderr.hasPrefix(
                #"error: the configuration has 3 services ("reports", "status", "archive"); choose one with --service"#
            ))
    }
}
