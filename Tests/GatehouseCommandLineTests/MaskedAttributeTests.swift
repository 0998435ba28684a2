import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// The values of attributes the configuration masks (`decisionLog.mask`) appear in no output
/// of the command: text, `--json`, reasons, or a test table's lines.
@Suite("Masked attribute values in the command's output")
struct MaskedAttributeTests {
    static let secret = "s3cret-token"

    /// A service whose gatekeeper echoes the token in its reason, with `token` masked.
    static let configuration = #"""
        { "services": { "docs": { "loader": { "type": "memory", "resources": { "docs/a": "A" } },
            "gatekeepers": [ { "type": "echo" } ] } },
          "decisionLog": { "path": "decisions.jsonl", "mask": ["token"] } }
        """#

    /// Denies, saying the token it was given: the kind of reason that leaks a value.
    struct EchoPolicy: AccessPolicy {
        let name = "echo"
        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            .deny(reason: "token \(request.attributes["token"] ?? "-") is not accepted")
        }
    }

    struct NoSettings: Decodable, Sendable {}

    static func registry() throws -> PluginRegistry {
        var registry = PluginRegistry()
        try registry.registerGatekeeper("echo", settings: NoSettings.self) { _, _ in EchoPolicy() }
        return registry
    }

    static let check = ["check", "--attr", "tenant=acme", "--attr", "token=\(secret)", "docs/a"]

    @Test func checkTextShowsTheKeyButNotTheValue() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(
            ["check", "--config", folder.configuration] + Self.check.dropFirst(),
            registry: try Self.registry())
        #expect(run.status == 3)
        let text = (run.out + run.err).joined(separator: "\n")
        #expect(!text.contains(Self.secret), "\(text)")
        #expect(text.contains("[tenant=acme, token=(masked)]"), "\(text)")
        #expect(text.contains("token (masked) is not accepted"), "\(text)")
    }

    @Test func checkJSONShowsNoMaskedValue() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(
            ["check", "--json", "--config", folder.configuration] + Self.check.dropFirst(),
            registry: try Self.registry())
        #expect(run.status == 3)
        #expect(!run.out.joined().contains(Self.secret), "\(run.out)")
        #expect(run.out.joined().contains(#""token":"(masked)""#))
    }

    @Test func aFailingCaseOfATestTableShowsNoMaskedValue() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let table = folder.url.appendingPathComponent("cases.json")
        try Data(
            #"""
            { "config": "gatehouse.json", "cases": [ { "name": "allowed", "resource": "docs/a",
              "attributes": { "token": "\#(Self.secret)" }, "expect": "allow" } ] }
            """#.utf8
        ).write(to: table)
        for arguments in [["test", table.path], ["test", "--json", table.path]] {
            let run = await Captured.run(arguments, registry: try Self.registry())
            #expect(run.status == 1)
            let text = (run.out + run.err).joined(separator: "\n")
            #expect(!text.contains(Self.secret), "\(text)")
        }
    }
}
