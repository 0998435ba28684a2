import Foundation
import GatehouseComposition
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// `gatehouse test --failures-only`, and progress: shown on a terminal only.
@Suite("gatehouse test output and progress")
struct TestCommandOutputTests {
    /// A table of three cases over a one-rule configuration; the second one fails.
    static func table(in folder: TemporaryDirectory) throws -> String {
        try Data(
            #"""
            allow alice read docs/*
            """#.utf8
        ).write(to: folder.url.appendingPathComponent("docs.rules"))
        let table = folder.url.appendingPathComponent("cases.json")
        try Data(
            #"""
            { "config": "gatehouse.json", "cases": [
              { "name": "alice reads", "subject": "alice", "resource": "docs/a", "expect": "allow" },
              { "name": "bob reads", "subject": "bob", "resource": "docs/a", "expect": "allow" },
              { "name": "bob does not write", "subject": "bob", "action": "write", "resource": "docs/a", "expect": "deny" } ] }
            """#.utf8
        ).write(to: table)
        return table.path
    }

    static let configuration = #"""
        { "services": { "docs": { "loader": { "type": "memory", "resources": {} },
            "gatekeepers": [ { "type": "file", "name": "rules", "path": "docs.rules" } ] } } }
        """#

    @Test func failuresOnlyPrintsTheFailingCasesAndTheSummary() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(["test", "--failures-only", try Self.table(in: folder)])
        #expect(run.status == 1)
        #expect(run.out.count == 3, "\(run.out)")
        #expect(run.out.first?.hasPrefix("FAIL  bob reads: expected allow, got deny") == true)
        #expect(run.out.last == "2 passed, 1 failed")
    }

    @Test func withoutFailuresOnlyEveryCaseHasALine() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(["test", try Self.table(in: folder)])
        #expect(run.out.filter { $0.hasPrefix("pass  ") }.count == 2)
    }

    @Test func progressIsShownOnATerminalAndErasedAtTheEnd() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(["test", try Self.table(in: folder)], terminal: true)
        #expect(run.progress.joined().contains("deciding"), "\(run.progress)")
        #expect(run.progress.last == "\r\u{1b}[K")
        #expect(run.err.isEmpty)
    }

    @Test func noProgressIsShownWhenStandardErrorIsNotATerminal() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(["test", try Self.table(in: folder)])
        #expect(run.progress.isEmpty)
        #expect(run.err.isEmpty)
        let validate = await Captured.run(["validate", folder.configuration])
        #expect(validate.err.isEmpty)
        #expect(validate.progress.isEmpty)
    }
}
