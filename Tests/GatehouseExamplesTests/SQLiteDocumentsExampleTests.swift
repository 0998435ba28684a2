import Testing

/// `sqlite-documents`: documents in one SQLite table, listed for two subjects through a gate.
@Suite("sqlite-documents example")
struct SQLiteDocumentsExampleTests {
    @Test func eachSubjectSeesOnlyTheDocumentsTheRulesAllowWithTheirWhereClause() async throws {
        let run = try await Examples.run("sqlite-documents", [])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 10)
        #expect(
            lines[0].hasPrefix(
                "alice may read: SELECT name FROM documents WHERE (instr(`name`, char(0)) = 0 AND ((`name` GLOB 'teams/*'"
            ))
        #expect(
            lines[1...4] == [
                "  public/welcome.txt", "  shared/budget.txt", "  teams/search/plan.txt",
                "  users/alice/notes.txt",
            ])
        #expect(lines[0].contains("`owner_id` IS NOT NULL AND `owner_id` = 'alice'"))
        #expect(lines[5].hasPrefix("bob may read: SELECT name FROM documents WHERE "))
        #expect(
            lines[6...9] == [
                "  public/welcome.txt", "  shared/trip.txt", "  users/bob/100%_done's.txt",
                "  users/bob/notes.txt",
            ])
    }
}
