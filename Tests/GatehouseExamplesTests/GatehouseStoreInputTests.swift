import Foundation
import Testing

/// Finding 10 of the third security round: `gatehouse store` read all its input before any size
/// limit applied (2 GB piped in reached 1.98 GB of memory), and said misleading things about
/// input it could not take. It now reads at most its limit and one byte more, and says what the
/// input was and that nothing was stored.
@Suite("gatehouse store: bounded input")
struct GatehouseStoreInputTests {
    typealias Fixture = GatehouseStoreCommandTests.Fixture

    /// A file of `size` bytes that occupies no disk (a hole), as input.
    static func sparseInput(in fixture: Fixture, size: UInt64) throws -> String {
        let url = fixture.folder.appendingPathComponent("input.bin")
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
        return url.path
    }

    @Test func aDeviceThatNeverEndsIsRefusedAtTheLimitAndNothingIsStored() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let run = try await Examples.command(
            "store", "--config", fixture.config, "--subject", "alice", "--input", "/dev/zero", "docs/z.bin")
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "error: /dev/zero: is larger than the limit of 67108864 bytes; nothing was stored\n"))
        #expect(!FileManager.default.fileExists(atPath: fixture.file("docs/z.bin").path))
    }

    @Test func inputOverTheLimitSaysItWasNotStoredNotThatItWasNotRead() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let input = try Self.sparseInput(in: fixture, size: 70_000_000)
        let run = try await Examples.command(
            "store", "--config", fixture.config, "--subject", "alice", "--input", input, "docs/big.bin")
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                ": is 70000000 bytes, larger than the limit of 67108864 bytes; nothing was stored"))
        #expect(!run.stderr.contains("not read"))
        #expect(!FileManager.default.fileExists(atPath: fixture.file("docs/big.bin").path))
    }

    @Test func aFolderAsInputIsAUsageErrorThatSaysSo() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let run = try await Examples.command(
            "store", "--config", fixture.config, "--subject", "alice", "--input", fixture.folder.path,
            "docs/x.txt")
        #expect(run.status == 2)
        #expect(
            run.stderr.hasPrefix(
                "error: \(fixture.folder.path): is a directory; expected a file to store\n"))
    }
}
