import Foundation
import GatehouseTestSupport
import Testing

/// The reproductions of the security issue, run through the `gatehouse` command as an attacker
/// would: each printed a secret or answered "allowed" before the resource identity rule, the
/// strict rules reader and fail-closed policies.
@Suite("Security reproductions through the command")
struct SecurityReproductionTests {
    /// A folder with a configuration of one service over a memory loader and the given gates.
    static func configuration(rules: String? = nil, gatekeepers: String) throws -> (
        TemporaryDirectory, String
    ) {
        let folder = try TemporaryDirectory()
        if let rules {
            try folder.write("keys.rules", rules)
        }
        let json = """
            { "services": { "vault": {
                "loader": { "type": "memory", "resources": {
                    "Keys/master": "THE MASTER KEY", "docs/café/plan": "THE PLAN",
                    "tenants/globex/plan.txt": "GLOBEX PLAN", "public/a": "public",
                    "keys/\u{11383}": "THE TULU KEY" } },
                "gatekeepers": \(gatekeepers) } } }
            """
        return (folder, try folder.write("gatehouse.json", json).path)
    }

    static let blockRules = "allow * read *\ndeny mallory read Keys/*\ndeny mallory read docs/café/*\n"

    @Test(arguments: ["\u{212A}eys/master", "docs/cafe\u{0301}/plan"])
    func aUnicodeEquivalentKeyNeverPassesADenyRule(_ key: String) async throws {
        let (folder, config) = try Self.configuration(
            rules: Self.blockRules, gatekeepers: #"[{ "type": "file", "path": "keys.rules" }]"#)
        defer { folder.cleanUp() }
        let run = try await Examples.command("load", "--config", config, "--subject", "mallory", key)
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("denied by (identity): the resource is not in Unicode NFC"))
    }

    /// Issue 25: a character of Unicode 16, which Foundation's older tables do not compose.
    @Test(arguments: ["keys/\u{11382}\u{113C9}", "keys/\u{11383}"])
    func aSpellingNewerThanFoundationsTablesNeverPassesADeny(_ key: String) async throws {
        let (folder, config) = try Self.configuration(
            rules: "allow * read keys/*\ndeny mallory read keys/\u{11383}\n",
            gatekeepers: #"[{ "type": "file", "path": "keys.rules" }]"#)
        defer { folder.cleanUp() }
        let run = try await Examples.command("load", "--config", config, "--subject", "mallory", key)
        #expect(run.status == 3)
        #expect(!run.stdout.contains("THE TULU KEY"))
        let decider =
            key.unicodeScalars.count == 6 ? "file: keys.rules:2 denies" : "(identity): the resource is not"
        #expect(run.stderr.hasPrefix("denied by \(decider)"))
        let alice = try await Examples.command(
            "load", "--config", config, "--subject", "alice", "keys/\u{11383}")
        #expect(alice.stdout.contains("THE TULU KEY"))
    }

    @Test func aDenyWrittenInNFDCoversItsNFCRequest() async throws {
        let (folder, config) = try Self.configuration(
            rules: "allow * read *\ndeny mallory read docs/cafe\u{0301}/*\n",
            gatekeepers: #"[{ "type": "file", "path": "keys.rules" }]"#)
        defer { folder.cleanUp() }
        let run = try await Examples.command(
            "load", "--config", config, "--subject", "mallory", "docs/café/plan")
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("denied by file: keys.rules:2 denies"))
    }

    @Test func aUnicodeEquivalentKeyNeverPassesANegatedAllowList() async throws {
        let (folder, config) = try Self.configuration(
            gatekeepers: #"[{ "type": "not", "policy": { "type": "allowList", "resources": ["Keys/*"] } }]"#)
        defer { folder.cleanUp() }
        let run = try await Examples.command(
            "load", "--config", config, "--subject", "mallory", "\u{212A}eys/master")
        #expect(run.status == 3)
        #expect(!run.stdout.contains("THE MASTER KEY"))
    }

    @Test(arguments: ["tenants/acme/../globex/plan.txt", "tenants/acme/./../globex/plan.txt"])
    func theGateNeverAllowsADotDotPath(_ key: String) async throws {
        let (folder, config) = try Self.configuration(
            gatekeepers: #"[{ "type": "allowList", "resources": ["tenants/acme/*"] }]"#)
        defer { folder.cleanUp() }
        let check = try await Examples.command("check", "--config", config, "--subject", "alice", key)
        #expect(check.status == 3)
        #expect(check.stderr.hasPrefix("denied by (identity): the resource has a "))
    }

    @Test func anEmptyBlockListUnderNotFails() async throws {
        let (folder, config) = try Self.configuration(
            rules: "",
            gatekeepers: #"[{ "type": "not", "policy": { "type": "file", "path": "keys.rules" } }]"#)
        defer { folder.cleanUp() }
        let run = try await Examples.command(
            "load", "--config", config, "--subject", "mallory", "Keys/master")
        #expect(run.status == 3)
        #expect(run.stderr.contains("keys.rules: is empty (0 bytes)"))
        #expect(!run.stdout.contains("THE MASTER KEY"))
    }

    @Test(arguments: ["allOf", "anyOf"])
    func notOfAnEmptyCombinatorIsRefusedByTheConfiguration(_ type: String) async throws {
        let (folder, config) = try Self.configuration(
            gatekeepers: #"[{ "type": "not", "gatekeeper": { "type": "\#(type)", "gatekeepers": [] } }]"#)
        defer { folder.cleanUp() }
        let run = try await Examples.command(
            "load", "--config", config, "--subject", "mallory", "Keys/master")
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.hasSuffix(
                "services.vault.gatekeepers[0].gatekeeper.gatekeepers: empty; \(type) needs at least one gatekeeper\n"
            ))
    }
}
