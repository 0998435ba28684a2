import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// A service that takes `owner` from its resources (`"resourceAttributes"`): through every command
/// that asks its gate, the caller's `--attr owner=...` never reaches a gatekeeper, whether or not
/// the resource has an owner on record; and what the command prints is the request the
/// gatekeepers saw, each value marked with where it came from.
@Suite("A caller cannot claim a resource's attribute, through any command")
struct CallerClaimedAttributeCommandTests {
    /// Two documents; only `docs/plan.md` has an owner on record (alice).
    static func folder(gatekeepers: String, source: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(
            configuration: """
                { "services": { "docs": {
                    "loader": { "type": "memory", "resources": { "docs/plan.md": "plan", "docs/budget.md": "budget" } },
                    "resourceAttributes": \(source),
                    "gatekeepers": \(gatekeepers) } } }
                """)
        try Data(
            """
            allow * read   docs/* if owner={subject}
            allow * write  docs/* if owner={subject}
            allow * delete docs/* if owner={subject}
            allow * list   docs   if owner={subject}

            """.utf8
        ).write(to: folder.url.appendingPathComponent("docs.rules"))
        try Data(#"{ "docs/plan.md": { "owner": "alice" } }"#.utf8)
            .write(to: folder.url.appendingPathComponent("owners.json"))
        try Data("mine".utf8).write(to: folder.url.appendingPathComponent("input.txt"))
        return folder
    }

    static let fileSource = #"{ "type": "json", "path": "owners.json" }"#
    static let declaredSource = #"{ "type": "json", "path": "owners.json", "attributes": ["owner"] }"#
    static let rules = #"[{ "type": "file", "path": "docs.rules" }]"#

    /// Runs `command` with its options, then `arguments`, in `folder`.
    static func run(
        _ command: [String], _ arguments: [String], in folder: TemporaryDirectory,
        registry: PluginRegistry = PluginRegistry()
    ) async -> Captured {
        let input = folder.url.appendingPathComponent("input.txt").path
        let options = command[0] == "store" ? ["--input", input] : []
        return await Captured.run(
            [command[0], "--config", folder.configuration] + options + arguments + command.dropFirst(),
            registry: registry)
    }

    // MARK: The issue's attack

    @Test(arguments: [
        ["load", "docs/budget.md"], ["store", "docs/budget.md"], ["remove", "docs/budget.md"],
    ])
    func aClaimedOwnerOfADocumentWithNoOwnerOnRecordIsDenied(_ command: [String]) async throws {
        let folder = try Self.folder(gatekeepers: Self.rules, source: Self.fileSource)
        defer { folder.cleanUp() }
        let attack = await Self.run(command, ["--subject", "mallory", "--attr", "owner=mallory"], in: folder)
        #expect(attack.status == 3, "\(attack.err)")
        #expect(attack.data.isEmpty && attack.out.allSatisfy(\.isEmpty), "\(attack.out)")
        #expect(attack.err.first?.hasPrefix("denied by file: ") == true, "\(attack.err)")
        #expect(!(attack.out + attack.err).joined().contains("owner=mallory"), "\(attack.err)")
    }

    @Test func theOwnerOnRecordStillLoads() async throws {
        let folder = try Self.folder(gatekeepers: Self.rules, source: Self.fileSource)
        defer { folder.cleanUp() }
        let owner = await Self.run(["load", "docs/plan.md"], ["--subject", "alice"], in: folder)
        #expect(owner.status == 0)
        #expect(owner.data == Data("plan".utf8))
    }

    // MARK: Every command, both ways of naming the source's attributes

    /// A registry whose `spy` gatekeeper is `spy`.
    static func registry(_ spy: AttributeSpy) throws -> PluginRegistry {
        var registry = PluginRegistry()
        try registry.registerGatekeeper("spy", settings: NoSettings.self) { _, _ in spy }
        return registry
    }

    struct NoSettings: Decodable, Sendable {}

    @Test(
        arguments: [
            ["check", "docs/budget.md"], ["check", "docs/plan.md"], ["load", "docs/budget.md"],
            ["store", "docs/budget.md"], ["remove", "docs/budget.md"], ["list", "docs"], ["plan"],
        ],
        [fileSource, declaredSource])
    func noClaimedValueReachesAGatekeeper(_ command: [String], source: String) async throws {
        let spy = AttributeSpy()
        let folder = try Self.folder(gatekeepers: #"[{ "type": "spy" }]"#, source: source)
        defer { folder.cleanUp() }
        let run = await Self.run(
            command, ["--subject", "mallory", "--attr", "owner=mallory", "--attr", "tenant=acme"], in: folder,
            registry: try Self.registry(spy))
        #expect(run.status == 0, "\(run.err)")
        #expect(!spy.attributes.isEmpty)
        #expect(!spy.saw("owner", "mallory"), "\(spy.attributes)")
        #expect(spy.attributes.allSatisfy { $0["tenant"] == "acme" }, "\(spy.attributes)")
    }

    // MARK: What the command shows

    static let claim = ["--attr", "owner=mallory", "--attr", "tenant=acme"]
    static let decided = #"[owner=alice (resource), tenant=acme (caller)] (service docs)"#

    @Test func checkShowsTheRequestAsDecidedEachValueWithItsOrigin() async throws {
        let folder = try Self.folder(gatekeepers: Self.rules, source: Self.fileSource)
        defer { folder.cleanUp() }
        let allowed = await Self.run(
            ["check", "docs/plan.md"], ["--subject", "alice"] + Self.claim, in: folder)
        #expect(allowed.status == 0)
        #expect(
            allowed.out == [#"allowed by file (docs.rules:1): alice read "docs/plan.md" "# + Self.decided])

        let denied = await Self.run(
            ["check", "docs/plan.md"], ["--subject", "mallory"] + Self.claim, in: folder)
        #expect(denied.status == 3)
        #expect(
            denied.err.contains(#"  request: mallory read "docs/plan.md" "# + Self.decided), "\(denied.err)")
        #expect(!denied.err.joined().contains("owner=mallory"), "\(denied.err)")
    }

    @Test func checkJSONGivesTheDecidedAttributesAndTheirOrigins() async throws {
        let folder = try Self.folder(gatekeepers: Self.rules, source: Self.fileSource)
        defer { folder.cleanUp() }
        let run = await Self.run(
            ["check", "docs/plan.md"], ["--json", "--subject", "mallory"] + Self.claim, in: folder)
        #expect(run.status == 3)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.out.joined().utf8)) as? [String: Any])
        let request = try #require(object["request"] as? [String: Any])
        #expect(request["attributes"] as? [String: String] == ["owner": "alice", "tenant": "acme"])
        #expect(request["origins"] as? [String: String] == ["owner": "resource", "tenant": "caller"])
    }

    @Test func loadStoreAndRemoveShowTheRequestAsDecided() async throws {
        let folder = try Self.folder(gatekeepers: Self.rules, source: Self.fileSource)
        defer { folder.cleanUp() }
        let output = folder.url.appendingPathComponent("out.txt").path
        let load = await Self.run(
            ["load", "docs/plan.md"], ["--subject", "alice", "--output", output] + Self.claim, in: folder)
        #expect(
            load.out == [
                "loaded 4 bytes to \(output): alice read \"docs/plan.md\" [owner=alice (resource), tenant=acme (caller)]"
            ])
        let store = await Self.run(
            ["store", "docs/plan.md"], ["--subject", "alice"] + Self.claim, in: folder)
        #expect(store.out == [#"stored 4 bytes: alice write "docs/plan.md" "# + Self.decided])
        let remove = await Self.run(
            ["remove", "docs/plan.md"], ["--subject", "alice"] + Self.claim, in: folder)
        #expect(remove.out == [#"removed: alice delete "docs/plan.md" "# + Self.decided])
    }

    @Test func aFailingTestCaseShowsTheRequestAsDecided() async throws {
        let folder = try Self.folder(gatekeepers: Self.rules, source: Self.fileSource)
        defer { folder.cleanUp() }
        let table = folder.url.appendingPathComponent("cases.json")
        try Data(
            #"""
            { "config": "gatehouse.json", "cases": [ { "name": "mallory claims the plan", "subject": "mallory",
              "resource": "docs/plan.md", "attributes": { "owner": "mallory", "tenant": "acme" }, "expect": "allow" } ] }
            """#.utf8
        ).write(to: table)
        let run = await Captured.run(["test", table.path])
        #expect(run.status == 1)
        #expect(
            run.out.contains(#"      request: mallory read "docs/plan.md" "# + Self.decided), "\(run.out)")
    }
}
