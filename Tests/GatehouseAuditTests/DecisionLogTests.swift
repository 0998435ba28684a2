import Foundation
import GatehouseAudit
import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("DecisionLog")
struct DecisionLogTests {
    static let id = UUID(uuidString: "3F0C2A9E-1B4D-4C6E-9A8B-7D5E3F1A2B4C")!

    @Test func oneRecordIsOneLineWithOPAFieldNames() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        var allowed = record(id: Self.id, attributes: ["device": "managed"])
        allowed.verdict = AccessVerdict(
            outcome: .allowed, gatekeeper: "rules", reason: "owner",
            rule: RuleReference(source: "documents.rules", line: 4))
        log.observe(allowed)
        await log.close()

        let contents = try LogContents(folder.file())
        #expect(contents.text.filter { $0 == "\n" }.count == 1)
        let expected: [String: Any] = [
            "decision_id": "3f0c2a9e-1b4d-4c6e-9a8b-7d5e3f1a2b4c",
            "timestamp": "2026-12-01T13:45:00.123456Z",
            "service": "documents",
            "input": [
                "subject": "alice", "action": "read", "resource": "docs/a.txt",
                "attributes": ["device": "managed"], "origins": ["device": "caller"],
            ],
            "result": true,
            "gatekeeper": "rules",
            "reason": "owner",
            "rule": "documents.rules:4",
            "shadow": false,
            "failed": false,
        ]
        #expect(NSDictionary(dictionary: contents.objects[0]).isEqual(to: expected))
        #expect(
            contents.lines[0]
                == LoggedLine(
                    decisionID: "3f0c2a9e-1b4d-4c6e-9a8b-7d5e3f1a2b4c",
                    timestamp: "2026-12-01T13:45:00.123456Z",
                    service: "documents",
                    input: .init(
                        subject: "alice", action: "read", resource: "docs/a.txt",
                        attributes: ["device": "managed"]),
                    result: true, gatekeeper: "rules", reason: "owner", rule: "documents.rules:4",
                    shadow: false,
                    failed: false))
    }

    @Test func aFailedVerdictIsNotAllowedAndSaysFailed() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        log.observe(record(outcome: .failed))
        log.observe(record(subject: nil, outcome: .denied))
        await log.close()
        let lines = try LogContents(folder.file()).lines
        #expect(lines.map(\.result) == [false, false])
        #expect(lines.map(\.failed) == [true, false])
        #expect(lines[1].input?.subject == nil)
        #expect(lines[1].reason == "no rule allows")
    }

    @Test func maskedAttributesNeverReachTheFileAndAreListedAsErased() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file(), mask: ["token", "a/b~c"])
        log.observe(record(attributes: ["token": "s3cr3t-value", "tenant": "acme", "a/b~c": "hidden"]))
        log.observe(record(attributes: ["tenant": "acme"]))
        await log.close()
        let contents = try LogContents(folder.file())
        #expect(!contents.text.contains("s3cr3t-value"))
        #expect(!contents.text.contains("hidden"))
        #expect(contents.lines[0].input?.attributes == ["tenant": "acme"])
        #expect(contents.lines[0].erased == ["/input/attributes/a~1b~0c", "/input/attributes/token"])
        #expect(contents.lines[1].erased == nil)
        #expect(contents.objects[1]["erased"] == nil)
    }

    @Test func aShadowLineSharesTheDecisionIDOfTheEnforcedVerdict() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        let instant = Date(timeIntervalSince1970: 1_796_132_700)
        let gate = AccessGate(
            gatekeepers: [SwitchPolicy("allowing")],
            shadow: [SwitchPolicy("denying", .deny(reason: "shadow says no"))],
            observer: log, clock: { instant },
            service: "documents")
        _ = try await gate.decide(AccessRequest(subject: "alice", resource: "docs/a.txt"))
        await gate.waitForShadowAnswers()
        await log.close()
        let lines = try LogContents(folder.file()).lines
        #expect(lines.count == 2)
        #expect(lines[0].decisionID == lines[1].decisionID)
        #expect(lines.map(\.shadow) == [false, true])
        #expect(lines.map(\.gatekeeper) == ["allowing", "denying"])
        #expect(lines.map(\.result) == [true, false])
        #expect(lines.map(\.timestamp) == ["2026-12-01T13:45:00.000000Z", "2026-12-01T13:45:00.000000Z"])
    }

    @Test func aDroppedShadowAskIsAFailedShadowLineThatSaysShadowDropped() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        var dropped = record(outcome: .failed, isShadow: true)
        dropped.isDropped = true
        log.observe(record(outcome: .failed, isShadow: true))
        log.observe(dropped)
        await log.close()
        let lines = try LogContents(folder.file()).lines
        #expect(lines.map(\.shadowDropped) == [nil, true])
        #expect(lines.map(\.failed) == [true, true])
        #expect(lines.map(\.shadow) == [true, true])
    }

    @Test(arguments: [
        (-0.5, "1969-12-31T23:59:59.500000Z"),
        (0, "1970-01-01T00:00:00.000000Z"),
        (951_782_400.000_001, "2000-02-29T00:00:00.000001Z"),
        (1_709_251_199.999_999, "2024-02-29T23:59:59.999999Z"),
        (4_107_542_400, "2100-03-01T00:00:00.000000Z"),
    ])
    func timestampsAreRFC3339InUTCWithMicroseconds(seconds: Double, text: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        log.observe(record(instant: Date(timeIntervalSince1970: seconds)))
        await log.close()
        #expect(try LogContents(folder.file()).lines[0].timestamp == text)
    }

    @Test func controlCharactersNeverBreakALine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        let hostile = "line\nbreak\r\u{1B}[31m\t\"quoted\" \\ \u{0}\u{7F} é 🦊"
        var forged = record(attributes: ["note": hostile])
        forged.verdict.reason = hostile
        log.observe(forged)
        await log.close()
        let contents = try LogContents(folder.file())
        #expect(contents.text.filter { $0 == "\n" }.count == 1)
        #expect(!contents.text.contains("\u{1B}"))
        #expect(contents.lines[0].input?.attributes["note"] == hostile)
        #expect(contents.lines[0].reason == hostile)
    }

    @Test func lineSeparatorsNextLineAndOtherUnsafeScalarsAreEscapedAsTheCommandsJSONDoes() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        let hostile = "a\u{2028}b\u{2029}c\u{85}d\u{9B}e\u{202E}f\u{2066}g é 🦊"
        var forged = record(subject: hostile, attributes: [hostile: hostile])
        forged.verdict.reason = hostile
        log.observe(forged)
        await log.close()
        let contents = try LogContents(folder.file())
        let raw = Set(contents.text.unicodeScalars.map(\.value))
        for value: UInt32 in [0x2028, 0x2029, 0x85, 0x9B, 0x202E, 0x2066] {
            #expect(!raw.contains(value), "U+\(String(value, radix: 16)) is written raw")
        }
        #expect(contents.text.contains(#"a\u2028b\u2029c\u0085d\u009be\u202ef\u2066g é 🦊"#))
        #expect(contents.lines[0].input?.subject == hostile)
        #expect(contents.lines[0].input?.attributes == [hostile: hostile])
        #expect(contents.lines[0].reason == hostile)
    }

    @Test func everyDecisionFromEightTasksIsOneLineWhenCallersWait() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file(), capacity: 1_000, overflow: .wait)
        // 100,000 decisions with GATEHOUSE_FULL_SIZE=1 (as in CI), 10,000 otherwise.
        let decisions = TestSize.count(full: 100_000, quick: 10_000)
        let ids = await Self.observe(decisions, from: 8, into: log)
        await log.close()

        let contents = try LogContents(folder.file())
        #expect(contents.lines.count == decisions)
        #expect(Set(contents.lines.compactMap(\.decisionID)) == Set(ids.map { $0.uuidString.lowercased() }))
        #expect(contents.lines.allSatisfy { $0.input != nil && $0.result != nil && $0.timestamp != nil })
        #expect(log.acceptedCount == decisions)
        #expect(log.droppedCount == 0)
        #expect(log.lostCount == 0)
    }

    @Test func withDropLinesAndReportedDropsAddUpToEveryDecision() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file(), capacity: 16, overflow: .drop)
        let decisions = TestSize.count(full: 100_000, quick: 10_000)
        _ = await Self.observe(decisions, from: 8, into: log)
        await log.close()

        let contents = try LogContents(folder.file())
        #expect(contents.decisions.count == log.acceptedCount)
        #expect(contents.reportedDrops == log.droppedCount)
        #expect(contents.decisions.count + contents.reportedDrops == decisions)
        #expect(log.droppedCount > 0, "eight tasks should overflow a queue of 16")
        #expect(Set(contents.decisions.compactMap(\.decisionID)).count == contents.decisions.count)
        for report in contents.lines where !report.isDecision {
            #expect((report.dropped ?? 0) > 0)
            #expect(report.message?.contains("capacity 16") == true)
        }
    }

    @Test func twoLogsAppendingToOneFileNeverTearALine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let first = try DecisionLog(url: folder.file(), capacity: 64, overflow: .wait)
        let second = try DecisionLog(url: folder.file(), capacity: 64, overflow: .wait)
        async let a = Self.observe(20_000, from: 2, into: first)
        async let b = Self.observe(20_000, from: 2, into: second)
        let ids = await a + b
        await first.close()
        await second.close()
        let contents = try LogContents(folder.file())
        #expect(contents.lines.count == 40_000)
        #expect(Set(contents.lines.compactMap(\.decisionID)).count == Set(ids).count)
    }

    @Test func flushThenReadSeesEveryAcceptedLine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file(), capacity: 100_000)
        for index in 0..<5_000 { log.observe(record("docs/\(index).txt")) }
        await log.flush()
        #expect(try LogContents(folder.file()).lines.count == 5_000)
        log.observe(record("docs/last.txt"))
        await log.flush()
        let lines = try LogContents(folder.file()).lines
        #expect(lines.count == 5_001)
        #expect(lines.last?.input?.resource == "docs/last.txt")
        #expect(!log.isClosed)
        await log.close()
    }

    @Test func closeIsIdempotentAndObservingAfterCloseCountsAsDropped() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        log.observe(record())
        await log.close()
        await log.close()
        await log.flush()
        log.observe(record())
        #expect(log.isClosed)
        #expect(log.acceptedCount == 1)
        #expect(log.droppedCount == 1)
        #expect(try LogContents(folder.file()).lines.count == 1)
    }

    @Test func aLogFileRemovedWhileOpenIsCreatedAgainAtTheNextWrite() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        log.observe(record("docs/before.txt"))
        await log.flush()
        try FileManager.default.moveItem(at: folder.file(), to: folder.file("decisions.jsonl.1"))
        log.observe(record("docs/after.txt"))
        await log.close()
        #expect(
            try LogContents(folder.file("decisions.jsonl.1")).lines.map(\.input?.resource) == [
                "docs/before.txt"
            ])
        #expect(try LogContents(folder.file()).lines.map(\.input?.resource) == ["docs/after.txt"])
        #expect(log.lastError == nil)
    }

    @Test func aLogThatCannotBeOpenedThrowsNamingThePath() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let missing = folder.url.appendingPathComponent("no-such-folder/decisions.jsonl")
        #expect {
            _ = try DecisionLog(url: missing)
        } throws: { error in
            (error as? DecisionLogError)?.message == "cannot open \(missing.path): No such file or directory"
        }
    }

    /// Observes `count` records with fresh ids from `tasks` concurrent tasks; returns the ids.
    static func observe(_ count: Int, from tasks: Int, into log: DecisionLog) async -> [UUID] {
        await withTaskGroup(of: [UUID].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var ids: [UUID] = []
                    for index in stride(from: task, to: count, by: tasks) {
                        let id = UUID()
                        ids.append(id)
                        log.observe(record("docs/\(index).txt", id: id, attributes: ["task": String(task)]))
                    }
                    return ids
                }
            }
            var all: [UUID] = []
            for await ids in group { all += ids }
            return all
        }
    }
}

/// A decision log line tells the resource's attributes from the caller's, beside OPA's fields.
@Suite("DecisionLog origins")
struct DecisionLogOriginTests {
    @Test func theInputGivesEachAttributesOriginBesideTheAttributes() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file(), mask: ["token"])
        let owners = ResourceAttributes<String>(["owner"]) { _ in ["owner": "alice"] }
        let gate = AccessGate(gatekeepers: [AttributeSpy()], observer: log, resourceAttributes: owners)
        _ = try await gate.decide(
            AccessRequest(
                subject: "bob", resource: "docs/plan.md",
                attributes: ["owner": "mallory", "device": "managed", "token": "s3cret"]))
        await log.close()
        let contents = try LogContents(folder.file())
        let input = try #require(contents.objects.first?["input"] as? [String: Any])
        #expect(input["attributes"] as? [String: String] == ["owner": "alice", "device": "managed"])
        #expect(input["origins"] as? [String: String] == ["owner": "resource", "device": "caller"])
        #expect(contents.objects.first?["erased"] as? [String] == ["/input/attributes/token"])
        #expect(!contents.text.contains("s3cret") && !contents.text.contains("mallory"))
    }
}
