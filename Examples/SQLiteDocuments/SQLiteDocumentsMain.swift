import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseSQLite

/// `sqlite-documents`: documents kept in one SQLite table, listed for two subjects through a
/// gate. The listing hands the gate's plan to the table, which selects only the rows the plan
/// permits with the plan's SQL; the gate still checks each row that comes back. The table's
/// `owner_id` column is each document's owner, for the decisions and in the SQL alike.
@main
struct SQLiteDocumentsMain {
    static let rules = """
        group  editors  alice
        allow  @editors read  teams/*
        allow  *        read  public/*
        allow  *        read  users/{subject}/*
        allow  *        read  shared/* if owner={subject}
        deny   *        read  teams/*/drafts/*
        allow  *        list  *
        """

    static let documents = [
        "public/welcome.txt": "Welcome.",
        "teams/search/plan.txt": "Ship the index.",
        "teams/search/drafts/idea.txt": "Not yet.",
        "users/alice/notes.txt": "Alice's notes.",
        "users/bob/notes.txt": "Bob's notes.",
        "users/bob/100%_done's.txt": "Names may hold %, _ and quotes.",
    ]

    /// Documents whose owner is the row's, not the folder's.
    static let owned = [
        "shared/budget.txt": "alice",
        "shared/trip.txt": "bob",
    ]

    static func main() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sqlite-documents-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try await run(database: folder.appendingPathComponent("documents.sqlite").path)
        } catch {
            FileHandle.standardError.write(Data("sqlite-documents: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(database: String) async throws {
        let table = try SQLiteLoader(
            path: database, table: "documents", attributeColumns: ["owner": "owner_id"])
        for (name, text) in documents.sorted(by: { $0.key < $1.key }) {
            try await table.store(Data(text.utf8), for: name)
        }
        for (name, owner) in owned.sorted(by: { $0.key < $1.key }) {
            try await table.store(Data(), for: name, attributes: ["owner": owner])
        }
        // The table's rows are the resources' attributes: the caller's claim to an owner is dropped.
        let gate = AccessGate(
            gatekeepers: [try RulesPolicy(text: rules, name: "documents")],
            resourceAttributes: table.resourceAttributes)
        let guarded = AccessProxy(table, gate: gate)
        for subject in ["alice", "bob"] {
            let plan = try await gate.plan(subject: subject, action: "read")
            let condition = plan.sql(
                column: "name", attributeColumns: table.attributeColumns, dialect: .sqlite)
            print("\(subject) may read: SELECT name FROM documents WHERE \(condition)")
            let visible = try await AccessContext.$current.withValue(AccessContext(subject: subject)) {
                try await guarded.keys(under: "")
            }
            for name in visible {
                print("  \(name)")
            }
        }
    }
}
