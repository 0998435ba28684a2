import Testing

/// `sqlite-documents`: documents in one SQLite table, listed for two subjects through a gate.
@Suite("sqlite-documents example")
struct SQLiteDocumentsExampleTests {
    @Test func eachSubjectSeesOnlyTheDocumentsTheRulesAllowWithTheirWhereClause() async throws {
        let run = try await Examples.run("sqlite-documents", [])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        #expect(
            lines[0].hasPrefix(
                "alice may read: SELECT name FROM documents WHERE (instr(`name`, char(0)) = 0 AND ((`name` GLOB 'teams/*'"
            ))
        #expect(
            lines[1...3] == ["  public/welcome.txt", "  teams/search/plan.txt", "  users/alice/notes.txt"])
        #expect(lines[4].hasPrefix("bob may read: SELECT name FROM documents WHERE "))
        #expect(
            lines[5...7] == ["  public/welcome.txt", "  users/bob/100%_done's.txt", "  users/bob/notes.txt"])
    }
}
