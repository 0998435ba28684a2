import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A block list (a rules file under `Not`) that a writer rewrites in place — truncate, then
/// write — while decisions run: the attack in which a partly written version decides. With
/// `requireEnd`, no decision may allow a request that both whole versions block.
@Suite("FilePolicy rewritten in place")
struct FilePolicyInPlaceStressTests {
    /// Both versions block `Keys/*` and `exports/*` on their last lines, so every proper prefix of
    /// either version misses them; the lines before differ.
    static let versionA = """
        # version A
        allow alice read drafts/*
        allow bob   read notes/*
        allow *     read Keys/*
        allow *     read exports/*
        end

        """
    static let versionB = """
        # version B: more lines, so that its prefixes are many
        allow carol read drafts/*
        allow dave  read notes/*
        allow erin  read photos/*
        allow frank read music/*
        allow *     read Keys/*
        allow *     read exports/*
        end

        """
    /// Requests both versions block (so `Not` denies them): an allow is a torn version deciding.
    static let blockedByBoth = [
        AccessRequest(subject: "mallory", resource: "Keys/master"),
        AccessRequest(subject: "mallory", resource: "exports/all.csv"),
    ]
    static let seconds = 2.0

    enum WriterStyle: String, CaseIterable, Sendable {
        case oneWritePerLine, oneWriteForTheWholeText
    }

    @Test(arguments: WriterStyle.allCases)
    func aVersionRewrittenInPlaceNeverAllowsWhatBothVersionsBlock(style: WriterStyle) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("block.rules")
            try replaceAtomically(url, with: Self.versionA)
            let policy = FilePolicy(url: url, requireEnd: true)
            let gate = Not(policy)
            for request in Self.blockedByBoth {
                #expect(try await gate.evaluate(request) != .allow)
            }
            let writer = InPlaceWriter(
                path: url.path, versions: [Self.versionB, Self.versionA], style: style)
            writer.start()
            let deadline = ContinuousClock.now + .seconds(Self.seconds)
            // On a machine busy with other tests, go on past the deadline until each reader has
            // made enough decisions (within a hard limit).
            let hardDeadline = ContinuousClock.now + .seconds(4 * Self.seconds)
            // Readers are threads of their own, not tasks: other suites may hold the concurrency
            // pool's few threads, and the readers must race with the writer, not wait for a turn.
            let results = ReaderResults()
            let finished = DispatchSemaphore(value: 0)
            for reader in 0..<2 {
                Thread.detachNewThread {
                    var tally = InPlaceTally()
                    var index = reader
                    while ContinuousClock.now < deadline
                        || (tally.decisions < 2_000 && ContinuousClock.now < hardDeadline)
                    {
                        let request = Self.blockedByBoth[index % Self.blockedByBoth.count]
                        index += 1
                        do {
                            // What `Not` does with the file's answer, asked without suspending:
                            // a threads-only reader has no task to await in. `Not` allows
                            // exactly when the file (read and parsed successfully) denies.
                            if try policy.currentRules().decision(for: request) != .allow {
                                tally.badAllows += 1
                            } else {
                                tally.denials += 1
                            }
                        } catch {
                            tally.failures += 1
                        }
                    }
                    results.add(tally)
                    finished.signal()
                }
            }
            // Waited for off the concurrency pool, so other suites' tasks run meanwhile.
            let (tallies, rewrites) = try await onAThreadOfItsOwn {
                for _ in 0..<2 { finished.wait() }
                return (results.total, try writer.finish())
            }
            #expect(tallies.badAllows == 0, "\(tallies.badAllows) decisions allowed what both versions block")
            // The rewrites really raced with the decisions.
            #expect(rewrites > 100 && tallies.decisions > 1_000, "\(rewrites) rewrites, \(tallies)")
            print(
                "in-place stress (\(style.rawValue)): \(rewrites) rewrites, \(tallies.decisions) "
                    + "decisions: \(tallies.denials) blocked, \(tallies.failures) failed on a partial "
                    + "version, \(tallies.badAllows) allowed")
        }
    }
}

/// The readers' tallies, added up.
private final class ReaderResults: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = InPlaceTally()

    func add(_ tally: InPlaceTally) {
        lock.withLock {
            sum.badAllows += tally.badAllows
            sum.denials += tally.denials
            sum.failures += tally.failures
        }
    }

    var total: InPlaceTally { lock.withLock { sum } }
}

/// What the readers saw.
private struct InPlaceTally: Sendable, CustomStringConvertible {
    var badAllows = 0
    var denials = 0
    var failures = 0
    var decisions: Int { badAllows + denials + failures }
    var description: String { "\(denials) denied, \(failures) failed, \(badAllows) allowed" }
}

/// Rewrites a file in place, on its own thread, until stopped: `open(O_TRUNC)`, then the text in
/// one `write` per line or in one `write`, alternating versions.
private final class InPlaceWriter: @unchecked Sendable {
    private let path: String
    private let versions: [String]
    private let style: FilePolicyInPlaceStressTests.WriterStyle
    private let lock = NSLock()
    private var stopped = false
    private var rewrites = 0
    private var failure: (any Error)?
    private let done = DispatchSemaphore(value: 0)

    init(path: String, versions: [String], style: FilePolicyInPlaceStressTests.WriterStyle) {
        self.path = path
        self.versions = versions
        self.style = style
    }

    func start() {
        Thread.detachNewThread { [self] in
            var count = 0
            while !lock.withLock({ stopped }) {
                do {
                    try rewrite(versions[count % versions.count])
                    count += 1
                    // A short rest with the version whole, so that on a loaded machine the readers
                    // still see whole versions between the partial ones.
                    usleep(200)
                } catch {
                    lock.withLock { failure = error }
                    break
                }
            }
            lock.withLock { rewrites = count }
            done.signal()
        }
    }

    private func rewrite(_ text: String) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let pieces: [String]
        switch style {
        case .oneWritePerLine:
            pieces = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                $0 + "\n"
            }
        case .oneWriteForTheWholeText:
            pieces = [text]
        }
        for piece in pieces {
            let bytes = Array(piece.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }
    }

    /// Stops the writer and returns how many rewrites it made.
    func finish() throws -> Int {
        lock.withLock { stopped = true }
        done.wait()
        if let failure = lock.withLock({ failure }) { throw failure }
        return lock.withLock { rewrites }
    }
}
