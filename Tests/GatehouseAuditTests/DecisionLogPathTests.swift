import Foundation
import GatehouseAudit
import GatehouseCore
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A decision log is appended to a regular file only: a pipe, a directory, a device or a
/// symbolic link at its path is refused, at once and by name, when the log is opened and when
/// the path is opened again after a rotation.
@Suite("DecisionLog path")
struct DecisionLogPathTests {
    @Test func aPipeAtThePathIsRefusedAtOnceNamingThePathAndThePipe() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.makeFifo("decisions.jsonl")
        let path = folder.path("decisions.jsonl")
        let returned = Flag()
        let opened = await Self.releasing(
            path, after: .seconds(2), unless: returned.isSet,
            running: {
                try await onAThreadOfItsOwn {
                    defer { returned.set() }
                    return try DecisionLog(url: folder.file())
                }
            })
        Self.expectRefused(opened, path: path, saying: "it is a named pipe (FIFO)")
    }

    @Test func aPipeWithAReaderAtThePathIsRefusedToo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.makeFifo("decisions.jsonl")
        let path = folder.path("decisions.jsonl")
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let opened = Result { () throws -> DecisionLog in try DecisionLog(url: folder.file()) }
        Self.expectRefused(opened, path: path, saying: "it is a named pipe (FIFO)")
        if case .success(let log) = opened { await log.close() }
    }

    @Test func aSymbolicLinkAtThePathIsRefusedAndItsTargetNeverWritten() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write("elsewhere/victim.txt", "")
        try folder.symlink("decisions.jsonl", to: folder.path("elsewhere/victim.txt"))
        try folder.symlink("dangling.jsonl", to: folder.path("elsewhere/created.txt"))
        for name in ["decisions.jsonl", "dangling.jsonl"] {
            let opened = Result { () throws -> DecisionLog in try DecisionLog(url: folder.file(name)) }
            Self.expectRefused(opened, path: folder.path(name), saying: "it is a symbolic link")
            if case .success(let log) = opened {
                log.observe(record())
                await log.close()
            }
        }
        #expect(try String(contentsOfFile: folder.path("elsewhere/victim.txt"), encoding: .utf8).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path("elsewhere/created.txt")))
    }

    @Test func aDirectoryOrADeviceAtThePathIsRefusedNamingWhatItIs() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.makeDirectory("decisions.jsonl")
        let directory = Result { () throws -> DecisionLog in try DecisionLog(url: folder.file()) }
        Self.expectRefused(directory, path: folder.path("decisions.jsonl"), saying: "it is a directory")
        let device = Result { () throws -> DecisionLog in
            try DecisionLog(url: URL(fileURLWithPath: "/dev/null"))
        }
        Self.expectRefused(device, path: "/dev/null", saying: "it is a character device")
    }

    @Test func aSymbolicLinkSwappedInBeforeARotationsReopenIsRefusedAndTheDecisionCountedAsLost() async throws
    {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let log = try DecisionLog(url: folder.file())
        log.observe(record("docs/before.txt"))
        await log.flush()
        try FileManager.default.moveItem(at: folder.file(), to: folder.file("decisions.jsonl.1"))
        try folder.write("elsewhere/victim.txt", "")
        try folder.symlink("decisions.jsonl", to: folder.path("elsewhere/victim.txt"))
        log.observe(record("docs/after.txt"))
        await log.close()
        #expect(try String(contentsOfFile: folder.path("elsewhere/victim.txt"), encoding: .utf8).isEmpty)
        #expect(try LogContents(folder.file("decisions.jsonl.1")).lines.count == 1)
        #expect(log.lostCount == 1)
        #expect(
            log.lastError?.message.hasPrefix(
                "cannot open \(folder.path("decisions.jsonl")): it is a symbolic link")
                == true, "\(String(describing: log.lastError))")
    }

    @Test func aPipeSwappedInBeforeARotationsReopenNeverBlocksTheWriterAndTheDecisionIsCountedAsLost()
        async throws
    {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let path = folder.path("decisions.jsonl")
        let log = try DecisionLog(url: folder.file())
        log.observe(record("docs/before.txt"))
        await log.flush()
        try FileManager.default.moveItem(at: folder.file(), to: folder.file("decisions.jsonl.1"))
        try folder.makeFifo("decisions.jsonl")
        log.observe(record("docs/after.txt"))
        // A reader appears only if the writer blocks; then it is released and the test fails.
        let flushed: Result<Void, any Error> = await Self.releasing(
            path, after: .seconds(2), unless: { log.lastError != nil }, running: { await log.flush() })
        #expect((try? flushed.get()) != nil)
        #expect(log.lostCount == 1)
        #expect(
            log.lastError?.message.hasPrefix("cannot open \(path): it is a named pipe (FIFO)") == true,
            "\(String(describing: log.lastError))")

        // With a reader waiting on the pipe, nothing reaches it either.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        log.observe(record("docs/later.txt"))
        await log.close()
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) <= 0, "a decision reached the pipe")
        #expect(log.lostCount == 2)
    }

    /// Expects `opened` to have failed with a ``DecisionLogError`` whose message starts
    /// `cannot open <path>: <saying>`.
    static func expectRefused(
        _ opened: Result<DecisionLog, any Error>, path: String, saying: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch opened {
        case .success:
            Issue.record("\(path) was opened as a decision log", sourceLocation: sourceLocation)
        case .failure(let error):
            let message = (error as? DecisionLogError)?.message ?? "\(error)"
            #expect(
                message.hasPrefix("cannot open \(path): \(saying)"), "\(message)",
                sourceLocation: sourceLocation)
        }
    }

    /// Runs `body`. When, after `delay`, `body` is still blocked (`finished`, asked of the
    /// threads that do the work rather than of the waiting task, says no), records that it
    /// blocked and opens the pipe at `fifo` for reading, which releases a writer blocked opening
    /// it; so a test of a writer that blocks fails instead of hanging.
    static func releasing<T: Sendable>(
        _ fifo: String, after delay: Duration, unless finished: @escaping @Sendable () -> Bool,
        running body: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error> {
        let watchdog = Task { () throws -> Int32? in
            try await Task.sleep(for: delay)
            return finished() ? nil : open(fifo, O_RDONLY | O_NONBLOCK)
        }
        let result = await Task { try await body() }.result
        watchdog.cancel()
        if case .success(let reader?) = await watchdog.result {
            Issue.record("still blocked after \(delay) on the pipe \(fifo)")
            close(reader)
        }
        return result
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Sets the flag.
    func set() { lock.withLock { value = true } }

    /// Whether the flag is set.
    @Sendable func isSet() -> Bool { lock.withLock { value } }
}
