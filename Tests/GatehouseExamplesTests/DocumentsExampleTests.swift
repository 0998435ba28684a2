import Foundation
import Testing

/// `documents`: a protocol of the app's own (`DocumentStore`) guarded by an `AccessGate`, with
/// roles by groups, the owner by `{subject}` and the tenant by an attribute.
@Suite("documents example")
struct DocumentsExampleTests {
    @Test func theStoryHoldsAndExitsZero() async throws {
        let run = try await Examples.run("documents", [])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasSuffix("Every call was allowed or refused as the rules say.\n"))
    }

    @Test func eachOperationIsAllowedOrRefusedWithTheRuleOrTheReason() async throws {
        let lines = try await Examples.run("documents", []).stdout.components(separatedBy: "\n")
        for expected in [
            "   allowed by documents:7: saved",
            "   refused by documents: no rule in documents allows",
            "   allowed by documents:8: shared",
            "   allowed by documents:6: listed [\"tenants/acme/docs/plan.txt\"]",
            "   allowed by documents:9: deleted",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)")
        }
        // A viewer may not save, an editor may not share or delete what they do not own, and a
        // user of another tenant reads nothing.
        let refused = zip(lines, lines.dropFirst()).filter { $0.1.hasPrefix("   refused") }.map(\.0)
        #expect(
            refused == [
                "4. gina (acme): save tenants/acme/docs/plan.txt",
                "6. zoe (globex): read tenants/acme/docs/plan.txt",
                "7. erin (acme): share tenants/acme/docs/plan.txt with gina",
                "10. erin (acme): delete tenants/acme/docs/plan.txt",
            ])
    }

    @Test func theOutputIsTheSameOnEveryRun() async throws {
        #expect(try await Examples.run("documents", []).stdout == Examples.run("documents", []).stdout)
    }
}
