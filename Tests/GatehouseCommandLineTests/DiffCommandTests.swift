import Foundation
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// `gatehouse diff OLD NEW`: every decision that changes, in text and JSON, with diff(1)'s exit
/// statuses (0 none, 1 some, 2 trouble).
@Suite("gatehouse diff")
struct DiffCommandTests {
    static func folder(old: String, new: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        _ = try folder.write("old.rules", old)
        _ = try folder.write("new.rules", new)
        return folder
    }

    static let old = "group editors alice bob\nallow @editors write docs/*\nallow * read docs/*\n"
    static let new = old + "deny bob write docs/secret/*\n"

    @Test func identicalDecisionsExitZero() async throws {
        let folder = try Self.folder(old: Self.old, new: Self.old + "# a comment\nallow alice write docs/a\n")
        defer { folder.cleanUp() }
        let run = await Captured.run(["diff", folder.path("old.rules"), folder.path("new.rules")])
        #expect(run.status == 0)
        #expect(run.out.last?.hasSuffix("no decision changes") == true, "\(run.out)")
    }

    @Test func aChangeIsPrintedWithItsRulesAndExampleAndExitsOne() async throws {
        let folder = try Self.folder(old: Self.old, new: Self.new)
        defer { folder.cleanUp() }
        let run = await Captured.run(["diff", folder.path("old.rules"), folder.path("new.rules")])
        #expect(run.status == 1)
        #expect(
            run.out == [
                #"bob write: gained nothing; lost "docs/secret/*"; before: old.rules:2; after: new.rules:2, new.rules:4"#,
                "  example: bob write docs/secret/c: allowed before, denied after",
            ])
    }

    @Test func jsonForOneSubjectAndActionHoldsAtMostOneChange() async throws {
        let folder = try Self.folder(old: Self.old, new: Self.new)
        defer { folder.cleanUp() }
        let run = await Captured.run([
            "diff", "--json", "--subject", "bob", "--action", "write", folder.path("old.rules"),
            folder.path("new.rules"),
        ])
        #expect(run.status == 1)
        #expect(
            run.out == [
                #"{"changes":[{"subject":"bob","action":"write","gained":false,"lost":{"match":["docs/secret/",""]},"#
                    + #""before":["old.rules:2"],"after":["new.rules:2","new.rules:4"],"example":{"subject":"bob","#
                    + #""action":"write","resource":"docs/secret/c","attributes":{},"before":"allow","after":"deny"}}]}"#
            ])
        let alice = await Captured.run([
            "diff", "--json", "--subject", "alice", "--action", "write", folder.path("old.rules"),
            folder.path("new.rules"),
        ])
        #expect(alice.status == 0)
        #expect(alice.out == [#"{"changes":[]}"#])
    }

    @Test func anyOtherSubjectIsNullInJSON() async throws {
        let folder = try Self.folder(old: "allow alice read docs/*\n", new: "allow * read docs/*\n")
        defer { folder.cleanUp() }
        let run = await Captured.run([
            "diff", "--json", "--action", "read", folder.path("old.rules"), folder.path("new.rules"),
        ])
        #expect(run.status == 1)
        let text = run.out.joined()
        #expect(
            text.contains(
                #"{"subject":null,"withoutSubject":true,"action":"read","gained":{"match":["docs/",""]}"#))
        #expect(text.contains(#"{"subject":null,"action":"read","gained":{"match":["docs/",""]}"#), "\(text)")
    }

    @Test func anInvalidFileIsExitTwoNamingItsLine() async throws {
        let folder = try Self.folder(old: Self.old, new: "allow @nobody read docs/*\n")
        defer { folder.cleanUp() }
        let run = await Captured.run(["diff", folder.path("old.rules"), folder.path("new.rules")])
        #expect(run.status == 2)
        #expect(run.err.first?.contains("new.rules:1") == true, "\(run.err)")
    }

    @Test func aMissingOperandIsAUsageError() async {
        let run = await Captured.run(["diff", "old.rules"])
        #expect(run.status == 2)
        #expect(run.err.first == "error: missing NEW for 'diff'", "\(run.err)")
    }
}
