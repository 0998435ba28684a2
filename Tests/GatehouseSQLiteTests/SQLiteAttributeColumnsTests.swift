import Foundation
import GatehousePolicies
import GatehouseTestSupport
import Testing

@testable import GatehouseCore
@testable import GatehouseSQLite

/// A `SQLiteLoader` with attribute columns: its rows are the resources' attributes, one source
/// of truth for each decision and for the listing's SQL, which then pushes the plan's owner
/// predicates down; the caller's claim to an owner reaches neither.
@Suite("SQLiteLoader with attribute columns")
struct SQLiteAttributeColumnsTests {
    static let rules = """
        group editors carol
        allow * list *
        allow * read docs/* if owner={subject}
        allow @editors read docs/*
        deny * read docs/secret/*
        allow * read public/*
        """

    /// 20 users each own 10 documents, one of them under docs/secret/; 5 public documents
    /// belong to bob.
    static func documents() async throws -> SQLiteLoader {
        let table = try SQLiteLoader(path: ":memory:", attributeColumns: ["owner": "owner_id"])
        for user in 0..<20 {
            for index in 0..<10 {
                let key = index == 0 ? "docs/secret/u\(user)" : "docs/u\(user)-\(index)"
                try await table.store(Data(key.utf8), for: key, attributes: ["owner": "u\(user)"])
            }
        }
        for index in 0..<5 {
            try await table.store(Data(), for: "public/p\(index)", attributes: ["owner": "bob"])
        }
        return table
    }

    @Test func aListingReturnsExactlyTheOwnersDocumentsAndThePublicOnesReadingOnlyThoseRows() async throws {
        let table = try await Self.documents()
        let reads = Counter()
        let owners = ResourceAttributes<String>(["owner"]) { key in
            reads.increment()
            return try await table.resourceAttributes.read(key).values
        }
        let proxy = table.guarded(by: try RulesPolicy(text: Self.rules, name: "docs"), attributes: owners)
        // The caller claims to own everything: the resource's column decides.
        let context = AccessContext(subject: "u3", attributes: ["owner": "u3"])
        let listed = try await AccessContext.$current.withValue(context) { try await proxy.keys(under: "") }
        #expect(listed == (1..<10).map { "docs/u3-\($0)" } + (0..<5).map { "public/p\($0)" })
        // Pushed down: the owner predicate was in the SQL, so only the 14 rows it selected were
        // read and decided, not 205.
        #expect(reads.value == 14)
        // carol, an editor, reads every document but the secret ones.
        let carol = try await AccessContext.$current.withValue(AccessContext(subject: "carol")) {
            try await proxy.keys(under: "docs")
        }
        #expect(carol.count == 180)
        #expect(try await table.keys(under: "").count == 205)
    }

    @Test func aCallersClaimedOwnerNeverOpensARowItDoesNotOwn() async throws {
        let table = try await Self.documents()
        let proxy = table.guarded(
            by: try RulesPolicy(text: Self.rules, name: "docs"), attributes: table.resourceAttributes)
        let mallory = AccessContext(subject: "mallory", attributes: ["owner": "mallory"])
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.$current.withValue(mallory) { try await proxy.load("docs/u1-1") }
        }
        // A row with no owner is owned by nobody, whatever the caller says.
        try await table.store(Data("x".utf8), for: "docs/orphan")
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.$current.withValue(mallory) { try await proxy.load("docs/orphan") }
        }
        let listed = try await AccessContext.$current.withValue(mallory) {
            try await proxy.keys(under: "docs")
        }
        #expect(listed.isEmpty)
        let owner = AccessContext(subject: "u1")
        #expect(
            try await AccessContext.$current.withValue(owner) { try await proxy.load("docs/u1-1") }
                == Data("docs/u1-1".utf8))
    }

    @Test func storingAValueKeepsTheRowsAttributesAndStoringAttributesReplacesThem() async throws {
        let table = try SQLiteLoader(
            path: ":memory:", attributeColumns: ["owner": "owner_id", "tenant": "tenant"])
        try await table.store(Data("1".utf8), for: "a", attributes: ["owner": "alice", "tenant": "t1"])
        try await table.store(Data("2".utf8), for: "a")
        #expect(try await table.resourceAttributes.read("a").values == ["owner": "alice", "tenant": "t1"])
        #expect(try await table.load("a") == Data("2".utf8))
        try await table.store(Data("3".utf8), for: "a", attributes: ["owner": "bob"])
        #expect(try await table.resourceAttributes.read("a").values == ["owner": "bob"])
        #expect(try await table.resourceAttributes.read("missing").values == [:])
        // An empty owner is a value, not a missing one.
        try await table.store(Data(), for: "b", attributes: ["owner": ""])
        #expect(try await table.resourceAttributes.read("b").values == ["owner": ""])
    }

    @Test func anAttributeWithoutAColumnOrAValueBothSidesCouldReadDifferentlyIsRefused() async throws {
        let table = try SQLiteLoader(path: ":memory:", attributeColumns: ["owner": "owner_id"])
        await #expect(throws: SQLiteLoaderError.self) {
            try await table.store(Data(), for: "a", attributes: ["group": "x"])
        }
        for value in ["jose\u{301}", "a\u{0}b", "a\nb"] {
            await #expect(throws: SQLiteLoaderError.self) {
                try await table.store(Data(), for: "a", attributes: ["owner": value])
            }
        }
        #expect(try await table.keys(under: "").isEmpty)
    }

    @Test func aRowWrittenBehindTheLoadersBackWithAnUnreadableOwnerFailsClosed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("docs.sqlite").path
        let table = try SQLiteLoader(path: path, attributeColumns: ["owner": "owner_id"])
        try await table.store(Data(), for: "docs/nfd", attributes: ["owner": "alice"])
        try await table.store(Data(), for: "docs/blob", attributes: ["owner": "alice"])
        // Another writer: an NFD owner and a blob owner.
        try sqlite(path, "UPDATE resources SET owner_id = 'jose' || char(769) WHERE name = 'docs/nfd'")
        try sqlite(path, "UPDATE resources SET owner_id = CAST('alice' AS BLOB) WHERE name = 'docs/blob'")
        let rules = "allow * list *\nallow * read docs/* if owner={subject}\n"
        let proxy = table.guarded(
            by: try RulesPolicy(text: rules, name: "docs"), attributes: table.resourceAttributes)
        for (subject, key) in [("josé", "docs/nfd"), ("alice", "docs/blob")] {
            let context = AccessContext(subject: subject)
            await #expect(throws: AccessDenied.self) {
                try await AccessContext.$current.withValue(context) { try await proxy.load(key) }
            }
            let listed = try await AccessContext.$current.withValue(context) {
                try await proxy.keys(under: "docs")
            }
            #expect(listed.isEmpty)
        }
        // The reason names the row and the column, never the owner held there (it may be masked).
        let reason = try await AccessContext.$current.withValue(AccessContext(subject: "josé")) {
            try await proxy.decide("docs/nfd").description
        }
        #expect(reason.contains("is not in Unicode NFC") && reason.contains("owner_id"), "\(reason)")
        #expect(!reason.contains("jos"), "\(reason)")
    }

    @Test func aColumnThatIsNotAPlainNameOrIsMissingFromTheTableIsRefused() async throws {
        for column in ["owner id", "t.owner", "1owner", "owner\"", ""] {
            #expect(throws: SQLiteLoaderError.self) {
                try SQLiteLoader(path: ":memory:", attributeColumns: ["owner": column])
            }
        }
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("docs.sqlite").path
        _ = try SQLiteLoader(path: path)
        #expect {
            try SQLiteLoader(path: path, attributeColumns: ["owner": "owner_id"])
        } throws: { error in
            "\(error)".contains("has no column \"owner_id\" for the attribute \"owner\"")
        }
    }

    /// Random rules with owners, groups, placeholders, conditions, denies and wildcards over a
    /// universe whose resources carry owners: the proxy's listing over the table is exactly the
    /// names `decide` allows, and where the plan needs no name-by-name check, the SQL alone
    /// selected exactly those rows.
    /// One seed per case, so the cases run side by side.
    @Test(arguments: UInt64(0)..<6)
    func listingsAgreeWithDecisionsOverRandomOwnedUniverses(seed: UInt64) async throws {
        var pairs = 0
        do {
            let universe = PlanUniverse(seed: seed, resourceCount: 200, callerCount: 12, owners: true)
            let table = try SQLiteLoader(path: ":memory:", attributeColumns: ["owner": "owner_id"])
            let stored = universe.resources.filter { ResourceIdentity.path.violation(in: $0) == nil }
            for name in stored {
                try await table.store(
                    Data(), for: name, attributes: universe.owners[name].map { ["owner": $0] } ?? [:])
            }
            let rules = try RulesPolicy(text: universe.text, name: "generated")
            for caller in universe.callers {
                let proxy = table.guarded(
                    by: rules, action: AccessAction(rawValue: caller.action),
                    attributes: table.resourceAttributes)
                let context = AccessContext(subject: caller.subject, attributes: caller.attributes)
                try await AccessContext.$current.withValue(context) {
                    var allowed: [String] = []
                    for name in stored where try await proxy.decide(name).isAllowed { allowed.append(name) }
                    let pushed = try await proxy.listedKeys(under: "")
                    let plan = try await proxy.gate.plan(
                        AccessPlan.Request(
                            subject: caller.subject, action: AccessAction(rawValue: caller.action),
                            attributes: caller.attributes, resourceAttributeNames: .only(["owner"])))
                    #expect(Set(allowed).isSubset(of: pushed), "seed \(seed), \(caller)")
                    if plan.residual.gatekeepersToAsk.isEmpty {
                        #expect(pushed == allowed, "seed \(seed), \(caller): \(plan.residual)")
                    }
                    pairs += stored.count
                }
            }
        }
        #expect(pairs >= 1_500)
    }

    /// Runs `statement` on the database at `path` through a second connection.
    private func sqlite(_ path: String, _ statement: String) throws {
        try SQLiteDatabase(path: path).execute(statement)
    }
}

/// A count that tasks may add to.
private final class Counter: Sendable {
    private let state = LockedState(0)
    func increment() { state.withLock { $0 += 1 } }
    var value: Int { state.withLock { $0 } }
}
