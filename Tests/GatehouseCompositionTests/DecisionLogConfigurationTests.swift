import Foundation
import GatehouseAudit
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("decisionLog in a configuration")
struct DecisionLogConfigurationTests {
    static let twoServices = """
        { "services": {
            "docs": { "loader": { "type": "memory", "resources": { "a": "A" } },
                      "gatekeepers": [{ "type": "alwaysAllow" }],
                      "shadow": [{ "type": "alwaysDeny", "name": "candidate" }] },
            "keys": { "loader": { "type": "memory", "resources": { "k": "K" } },
                      "gatekeepers": [{ "type": "alwaysDeny", "reason": "closed" }] } },
          "decisionLog": { "path": "logs/decisions.jsonl", "mask": ["token"], "capacity": 100, "overflow": "wait" } }
        """

    /// The lines of a JSON Lines file, each as an object.
    static func lines(_ url: URL) throws -> [[String: Any]] {
        try String(decoding: Data(contentsOf: url), as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func everyServiceWritesEveryDecisionToTheLogAndTheCallersObserverSeesThemToo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let file = try folder.write(Self.twoServices, to: "gatehouse.json")
        let observer = RecordingObserver()
        let services = try Assembler(observer: observer).assemble(contentsOf: file)
        let log = try #require(services.decisionLog)
        #expect(log.url == folder.url.appendingPathComponent("logs/decisions.jsonl").standardizedFileURL)
        #expect(log.mask == ["token"])
        #expect(log.capacity == 100)
        #expect(log.overflow == .wait)

        try await AccessContext.$current.withValue(
            AccessContext(subject: "alice", attributes: ["token": "t0p"])
        ) {
            _ = try await services.service(named: "docs").load("a")
            // The shadow answers off the caller's path; wait for it to keep the lines in order.
            try await services.service(named: "docs").gate.waitForShadowAnswers()
            _ = try? await services.service(named: "keys").load("k")
        }
        await log.close()

        let lines = try Self.lines(log.url)
        #expect(lines.count == 3)
        #expect(observer.records.count == 3)
        #expect(lines.map { $0["service"] as? String } == ["docs", "docs", "keys"])
        #expect(lines.map { $0["shadow"] as? Bool } == [false, true, false])
        #expect(lines.map { $0["result"] as? Bool } == [true, false, false])
        #expect(lines[0]["decision_id"] as? String == lines[1]["decision_id"] as? String)
        #expect(lines[2]["reason"] as? String == "closed")
        let input = try #require(lines[0]["input"] as? [String: Any])
        #expect((input["attributes"] as? [String: String]) == [:])
        #expect(lines[0]["erased"] as? [String] == ["/input/attributes/token"])
    }

    @Test func aConfigurationWithoutADecisionLogHasNone() throws {
        let services = try Assembler().assemble(
            json: Data(service(gatekeepers: #"[{ "type": "alwaysAllow" }]"#).utf8),
            baseDirectory: FileManager.default.temporaryDirectory)
        #expect(services.decisionLog == nil)
    }

    @Test func decisionLogFileReplacesThePathAndKeepsTheMaskCapacityAndOverflow() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write(Self.twoServices, to: "gatehouse.json")
        let other = folder.url.appendingPathComponent("other.jsonl")
        let services = try Assembler(decisionLogFile: other).assemble(contentsOf: file)
        let log = try #require(services.decisionLog)
        #expect(log.url == other.standardizedFileURL)
        #expect(log.mask == ["token"])
        #expect(log.capacity == 100)
        #expect(log.overflow == .wait)
        await log.close()
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("logs").path))
    }

    @Test func decisionLogFileAddsALogWithTheDefaultsWhenTheConfigurationHasNone() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let url = folder.url.appendingPathComponent("decisions.jsonl")
        let services = try Assembler(decisionLogFile: url).assemble(
            json: Data(service(gatekeepers: #"[{ "type": "alwaysAllow" }]"#).utf8), baseDirectory: folder.url)
        let log = try #require(services.decisionLog)
        #expect(log.mask.isEmpty)
        #expect(log.capacity == DecisionLog.defaultCapacity)
        #expect(log.overflow == .drop)
        _ = try await services.service(named: "s").load("a")
        await log.close()
        #expect(try Self.lines(url).count == 1)
    }

    @Test(arguments: [
        (
            #"{ "pth": "d.jsonl" }"#,
            [
                #"decisionLog.pth: unknown key (did you mean "path"?); a decision log has "path", "mask", "capacity", "overflow""#,
                "decisionLog.path: missing; name the file to write decisions to",
            ]
        ),
        (#"{ "path": "" }"#, [#"decisionLog.path: expected a non-empty string, found """#]),
        (
            #"{ "path": "d.jsonl", "overflow": "drp" }"#,
            [#"decisionLog.overflow: expected "drop" or "wait", found "drp" (did you mean "drop"?)"#]
        ),
        (
            #"{ "path": "d.jsonl", "capacity": 0 }"#,
            ["decisionLog.capacity: expected a positive whole number of records, found 0"]
        ),
        (
            #"{ "path": "d.jsonl", "mask": ["token", 3] }"#,
            ["decisionLog.mask[1]: expected an attribute key (a non-empty string), found 3"]
        ),
        (
            #"{ "path": "d.jsonl", "mask": "token" }"#,
            ["decisionLog.mask: expected an array of attribute keys, found a string"]
        ),
        (#""d.jsonl""#, [#"decisionLog: expected an object with "path", found a string"#]),
    ])
    func decisionLogSettingsAreCheckedAtTheirPlaces(log: String, expected: [String]) {
        let json = """
            { "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [{ "type": "alwaysAllow" }] } },
              "decisionLog": \(log) }
            """
        #expect(issues(json) == expected)
    }

    @Test func aMisspelledTopLevelDecisionLogIsSuggested() {
        let json = """
            { "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [{ "type": "alwaysAllow" }] } },
              "decisionlog": { "path": "d.jsonl" } }
            """
        #expect(
            issues(json) == [
                #"decisionlog: unknown key (did you mean "decisionLog"?); the top level has "services", "decisionLog" (and "$schema")"#
            ])
    }

    @Test func aDecisionLogThatCannotBeOpenedIsAConfigurationErrorAtItsPath() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let json = """
            { "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [{ "type": "alwaysAllow" }] } },
              "decisionLog": { "path": "missing/d.jsonl" } }
            """
        let error = #expect(throws: ConfigurationError.self) {
            try Assembler().assemble(json: Data(json.utf8), baseDirectory: folder.url)
        }
        let missing = folder.url.appendingPathComponent("missing/d.jsonl").standardizedFileURL.path
        #expect(
            error?.issues.map(\.description) == [
                "decisionLog.path: cannot open \(missing): No such file or directory"
            ])
    }

    @Test func theDecisionLogSurvivesAJSONRoundTrip() throws {
        let configuration = try GatehouseConfiguration(json: Data(Self.twoServices.utf8))
        #expect(
            configuration.decisionLog
                == DecisionLogConfiguration(
                    path: "logs/decisions.jsonl", mask: ["token"], capacity: 100, overflow: .wait))
        let encoded = try JSONEncoder().encode(configuration)
        #expect(try JSONDecoder().decode(GatehouseConfiguration.self, from: encoded) == configuration)
        #expect(try GatehouseConfiguration(json: encoded) == configuration)
    }
}
