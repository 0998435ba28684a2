import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseAudit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A full disk: a write cut short is finished or cut back to the last whole line, and every
/// decision is either a whole line in the file or counted as lost, never both.
@Suite("DecisionLog on a full disk")
struct DecisionLogFullDiskTests {
    @Test func aWriteCutShortByAFullDiskLeavesOnlyWholeLinesAndLoggedPlusLostIsEveryDecision() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        // Room for 40,000 bytes and a bit: the line that reaches the limit is cut mid-line.
        let disk = SimulatedFullDisk(limit: 40_123)
        let log = try DecisionLog(
            url: folder.file(), mask: [], capacity: 1_000, overflow: .wait, clock: { Date() },
            write: disk.write)
        for index in 0..<400 { log.observe(record("docs/\(index).txt")) }
        await log.flush()
        disk.free()
        for index in 400..<420 { log.observe(record("docs/\(index).txt")) }
        await log.close()

        let contents = try LogContents(folder.file())
        #expect(log.acceptedCount == 420)
        #expect(log.lostCount > 0)
        #expect(contents.decisions.count + log.lostCount == 420)
        #expect(
            contents.decisions.suffix(20).map(\.input?.resource) == (400..<420).map { "docs/\($0).txt" })
        #expect(log.lastError?.code == ENOSPC)
        #expect(log.lastError?.message.hasPrefix("cannot write \(folder.file().path): ") == true)
    }

    @Test func aFailedWriteIsCountedAsLostAndNamedNeverACrash() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let disk = SimulatedFullDisk(limit: 0)
        let log = try DecisionLog(
            url: folder.file(), mask: [], capacity: 4, overflow: .wait, clock: { Date() }, write: disk.write)
        for _ in 0..<100 { log.observe(record()) }
        await log.close()
        #expect(log.acceptedCount == 100)
        #expect(log.lostCount == 100)
        #expect(log.lastError?.operation == "write")
        #expect(log.lastError?.message.hasPrefix("cannot write \(folder.file().path): ") == true)
        #expect(try LogContents(folder.file()).lines.isEmpty)
    }

    @Test func dropReportsThatAFullDiskRefusedAreReportedLaterSoDropsAddUp() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let disk = SimulatedFullDisk(limit: 10_017)
        let log = try DecisionLog(
            url: folder.file(), mask: [], capacity: 8, overflow: .drop, clock: { Date() }, write: disk.write)
        for index in 0..<2_000 { log.observe(record("docs/\(index).txt")) }
        await log.flush()
        disk.free()
        log.observe(record("docs/last.txt"))
        await log.close()

        let contents = try LogContents(folder.file())
        #expect(log.acceptedCount + log.droppedCount == 2_001)
        #expect(contents.decisions.count + log.lostCount == log.acceptedCount)
        #expect(contents.reportedDrops == log.droppedCount)
        #expect(contents.decisions.last?.input?.resource == "docs/last.txt")
    }

    @Test(
        .enabled(
            if: SmallTmpfs.canMount,
            "needs root on Linux and a system that lets it mount a tmpfs (mount -t tmpfs -o size=64k)"))
    func onARealFullTmpfsNoLineIsTornAndLoggedPlusLostIsEveryDecision() async throws {
        let disk = try SmallTmpfs(kilobytes: 64)
        defer { disk.unmount() }
        try Data(count: 40 * 1024).write(to: disk.file("filler"))
        let log = try DecisionLog(url: disk.file("decisions.jsonl"), capacity: 1_000, overflow: .wait)
        for index in 0..<400 { log.observe(record("docs/\(index).txt")) }
        await log.flush()
        try FileManager.default.removeItem(at: disk.file("filler"))
        for index in 400..<420 { log.observe(record("docs/\(index).txt")) }
        await log.close()

        let contents = try LogContents(disk.file("decisions.jsonl"))
        #expect(log.acceptedCount == 420)
        #expect(log.lostCount > 0)
        #expect(contents.decisions.count + log.lostCount == 420)
        #expect(
            contents.decisions.suffix(20).map(\.input?.resource) == (400..<420).map { "docs/\($0).txt" })
        #expect(log.lastError?.code == ENOSPC)
    }
}
