import Foundation
import GatehouseTestSupport
import Testing

/// The remote gatekeeper through the `gatehouse` command, in a process of its own: what the
/// environment says (a proxy, a token) and what the command prints.
@Suite("The remote gatekeeper through the command")
struct GatehouseRemoteCommandTests {
    /// A folder with a configuration of one service whose one gatekeeper is `remote`.
    static func configuration(remote settings: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let json = """
            { "services": { "vault": {
                "loader": { "type": "memory", "resources": { "a": "THE SECRET" } },
                "gatekeepers": [{ "type": "remote", "protocol": "opa", \(settings) }] } } }
            """
        try Data(json.utf8).write(to: folder.file("gatehouse.json"))
        return folder
    }

    static let allow = #"{"result": true}"#

    @Test func aProxyTheEnvironmentNamesNeverSeesADecisionUnlessTheConfigurationChoosesIt() async throws {
        let service = try LoopbackServer(json: #"{"result": false}"#)
        let proxy = try LoopbackServer(json: Self.allow)
        let folder = try Self.configuration(remote: #""url": "\#(service.url())""#)
        let run = try await Examples.run(
            "gatehouse", ["load", "--config", folder.path("gatehouse.json"), "--subject", "alice", "a"],
            environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
        #expect(
            proxy.requests.isEmpty,
            "the environment's proxy got the decision: \(proxy.requests.map(\.bodyText))")
        #expect(!run.stdout.contains("THE SECRET"))
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("http_proxy"), "\(run.stderr)")
    }

    @Test func aProxyIsUsedWhenTheConfigurationSaysSo() async throws {
        let service = try LoopbackServer(json: #"{"result": false}"#)
        let proxy = try LoopbackServer(json: Self.allow)
        let folder = try Self.configuration(remote: #""url": "\#(service.url())", "proxy": "environment""#)
        let run = try await Examples.run(
            "gatehouse", ["load", "--config", folder.path("gatehouse.json"), "--subject", "alice", "a"],
            environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
        #expect(proxy.requests.count == 1, "\(run.stderr)")
        #expect(
            proxy.requests.first?.path == service.url().absoluteString, "a proxy is asked for the whole URL")
        #expect(service.requests.isEmpty)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func theBearerTokenComesFromTheVariableTheConfigurationNames() async throws {
        let service = try LoopbackServer(json: Self.allow)
        let folder = try Self.configuration(
            remote: #""url": "\#(service.url())", "bearerTokenEnvironment": "GATEHOUSE_OPA_TOKEN""#)
        let run = try await Examples.run(
            "gatehouse", ["load", "--config", folder.path("gatehouse.json"), "--subject", "alice", "a"],
            environment: ["GATEHOUSE_OPA_TOKEN": "T0pS3cr3t"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(service.requests.first?.headers["authorization"] == "Bearer T0pS3cr3t")
        let explained = try await Examples.run(
            "gatehouse", ["describe", folder.path("gatehouse.json")],
            environment: ["GATEHOUSE_OPA_TOKEN": "T0pS3cr3t"])
        #expect(!(explained.stdout + explained.stderr).contains("T0pS3cr3t"))
        #expect(explained.stdout.contains("GATEHOUSE_OPA_TOKEN"), "\(explained.stdout)")
    }

    @Test func aPasswordInTheURLIsRefusedAndNeverPrinted() async throws {
        let folder = try Self.configuration(remote: #""url": "http://admin:S3cr3t@127.0.0.1:8181/v1/data/x""#)
        for arguments in [
            ["validate", folder.path("gatehouse.json")],
            ["check", "--config", folder.path("gatehouse.json"), "--subject", "alice", "a"],
        ] {
            let run = try await Examples.command(arguments)
            #expect(run.status != 0, "\(arguments)")
            #expect(!(run.stdout + run.stderr).contains("S3cr3t"), "\(arguments): \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("gatekeepers[0].url"), "\(run.stderr)")
        }
    }

    @Test func aQueryInTheURLIsNeverPrinted() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let folder = try Self.configuration(
            remote: #""url": "http://127.0.0.1:\#(port)/v1/data/x?token=T0pS3cr3t", "timeout": "2s""#)
        for arguments in [
            ["describe", folder.path("gatehouse.json")],
            ["validate", folder.path("gatehouse.json")],
            ["check", "--config", folder.path("gatehouse.json"), "--subject", "alice", "a"],
            ["check", "--json", "--config", folder.path("gatehouse.json"), "--subject", "alice", "a"],
        ] {
            let run = try await Examples.command(arguments)
            #expect(
                !(run.stdout + run.stderr).contains("T0pS3cr3t"), "\(arguments): \(run.stdout)\(run.stderr)")
        }
        let log = folder.file("decisions.jsonl")
        let run = try await Examples.command([
            "check", "--config", folder.path("gatehouse.json"), "--decision-log", log.path, "--subject",
            "alice", "a",
        ])
        let line = try String(contentsOf: log, encoding: .utf8)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(line.contains("127.0.0.1:\(port)/v1/data/x?…"), "\(line)")
        #expect(!line.contains("T0pS3cr3t"), "\(line)")
    }
}
