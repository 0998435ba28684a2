import Foundation
import GatehouseTestSupport
import Testing

@Suite("gatehouse --decision-log")
struct GatehouseDecisionLogCommandTests {
    static let config = "Examples/demo/gatehouse.json"
    static let monday = "2026-11-30T10:00:00Z"

    /// Each line of `path`, as a JSON object.
    static func lines(_ path: String) throws -> [[String: Any]] {
        try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            .split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
    }

    @Test func checkWritesTheDecisionToTheLogBeforeItExits() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = folder.path("decisions.jsonl")
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", Self.monday, "--decision-log",
            log,
            "avatars/alice.txt")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = try Self.lines(log)
        #expect(lines.count == 1)
        #expect(lines[0]["service"] as? String == "avatars")
        #expect(lines[0]["result"] as? Bool == true)
        #expect(lines[0]["timestamp"] as? String == "2026-11-30T10:00:00.000000Z")
        #expect((lines[0]["input"] as? [String: Any])?["subject"] as? String == "alice")
        #expect((lines[0]["decision_id"] as? String)?.count == 36)
    }

    @Test func loadAppendsADenialWithItsGatekeeper() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = folder.path("decisions.jsonl")
        for subject in ["alice", "mallory"] {
            _ = try await Examples.command(
                "load", "--config", Self.config, "--subject", subject, "--at", Self.monday,
                "--decision-log=\(log)",
                "avatars/alice.txt")
        }
        let lines = try Self.lines(log)
        #expect(lines.map { $0["result"] as? Bool } == [true, false])
        #expect(lines[1]["gatekeeper"] as? String == "team")
        #expect(lines[1]["failed"] as? Bool == false)
    }

    @Test func theFlagReplacesTheConfiguredPathAndKeepsTheMask() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try Data(
            """
            { "services": { "s": { "loader": { "type": "memory", "resources": { "a": "A" } },
                                   "gatekeepers": [{ "type": "alwaysAllow" }] } },
              "decisionLog": { "path": "configured.jsonl", "mask": ["token"] } }
            """.utf8
        ).write(to: URL(fileURLWithPath: folder.path("gatehouse.json")))
        let run = try await Examples.command(
            "check", "--config", folder.path("gatehouse.json"), "--attr", "token=s3cr3t", "--attr",
            "tenant=acme",
            "--decision-log", folder.path("given.jsonl"), "a")
        #expect(run.status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path("configured.jsonl")))
        let text = try String(contentsOfFile: folder.path("given.jsonl"), encoding: .utf8)
        #expect(!text.contains("s3cr3t"))
        let lines = try Self.lines(folder.path("given.jsonl"))
        #expect(
            (lines[0]["input"] as? [String: Any])?["attributes"] as? [String: String] == ["tenant": "acme"])
        #expect(lines[0]["erased"] as? [String] == ["/input/attributes/token"])
    }

    @Test func aLogThatCannotBeOpenedIsAConfigurationErrorAndExitsOne() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = folder.path("missing/decisions.jsonl")
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", Self.monday, "--decision-log",
            log,
            "avatars/alice.txt")
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "\(Self.config): the decision log: cannot open \(log): No such file or directory\n")
    }
}
