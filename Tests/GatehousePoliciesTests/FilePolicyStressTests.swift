import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// Concurrent loads through a proxy guarded by a ``FilePolicy`` whose file a writer replaces
/// atomically, in a loop, between two rule sets.
@Suite("FilePolicy stress")
struct FilePolicyStressTests {
    static let versionA = """
        # version A: alice may read her avatars, bob may not
        allow alice read avatars/alice/*
        deny  bob   *    avatars/*
        allow *     read public/*

        """
    static let versionB = """
        # version B: bob may read avatars, alice not her private ones
        # (one more comment line, so that every line number moves)
        allow bob   read avatars/*
        deny  alice *    avatars/alice/private-*
        allow *     read public/*
        deny  *     read public/secret-*

        """
    /// Requests whose decisions tell the versions apart (all but the last two differ).
    static let requests = [
        AccessRequest(subject: "alice", resource: "avatars/alice/a.png"),
        AccessRequest(subject: "alice", resource: "avatars/alice/private-a"),
        AccessRequest(subject: "bob", resource: "avatars/bob/b.png"),
        AccessRequest(subject: nil, resource: "public/secret-plan"),
        AccessRequest(subject: "bob", action: "write", resource: "avatars/bob/b.png"),
        AccessRequest(subject: nil, resource: "public/logo.png"),
        AccessRequest(subject: "carol", resource: "avatars/carol/c.png"),
    ]
    static let readers = 4
    static let loadsPerReader = 1500

    /// What a stable file with `text` decides for each request, by a policy of its own.
    static func decisions(of text: String) async throws -> [AccessDecision] {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: text)
            let policy = FilePolicy(url: url)
            var decisions: [AccessDecision] = []
            for request in requests {
                decisions.append(try await policy.evaluate(request))
            }
            return decisions
        }
    }

    @Test func everyDecisionWhileTheFileIsSwappedFollowsOneOfTheTwoVersions() async throws {
        let expectedA = try await Self.decisions(of: Self.versionA)
        let expectedB = try await Self.decisions(of: Self.versionB)
        let distinct = zip(expectedA, expectedB).filter { $0 != $1 }.count
        #expect(distinct == Self.requests.count - 2)

        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: Self.versionA)
            let policy = FilePolicy(url: url)
            let loader = SpyLoader()
            let observer = RecordingObserver()
            // One proxy per action, sharing the policy, the loader and the observer.
            let proxies = Dictionary(
                uniqueKeysWithValues: Set(Self.requests.map(\.action)).map { action in
                    (action, AccessProxy(loader, gatekeepers: [policy], action: action, observer: observer))
                })
            let started = ContinuousClock.now

            // The writer is a thread of its own, so swaps race with decisions on the other core
            // rather than taking turns with them.
            let writer = SwapWriter(
                url: url, versions: [Self.versionB, Self.versionA], readers: Self.readers)
            writer.start()
            let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
                for reader in 0..<Self.readers {
                    group.addTask {
                        defer { writer.readerFinished() }
                        var random = SplitMix64(seed: 0x5eed_0000 + UInt64(reader))
                        var tally = Tally()
                        for _ in 0..<Self.loadsPerReader {
                            let index = Int.random(in: 0..<Self.requests.count, using: &random)
                            let request = Self.requests[index]
                            let decision: AccessDecision
                            do {
                                try await AccessContext.$current.withValue(
                                    AccessContext(subject: request.subject)
                                ) {
                                    _ = try await proxies[request.action]!.load(request.resource)
                                }
                                decision = .allow
                            } catch let denied as AccessDenied {
                                if denied.isFailure { tally.gateFailures.append(denied.reason) }
                                decision = .deny(reason: denied.reason)
                            }
                            tally.count(decision, expectedA[index], expectedB[index])
                            writer.readerMadeProgress()
                            await Task.yield()
                        }
                        return tally
                    }
                }
                var total = Tally()
                for try await tally in group {
                    total.add(tally)
                }
                return total
            }
            let swaps = try await onAThreadOfItsOwn { try writer.finish() }
            let elapsed = ContinuousClock.now - started

            #expect(tallies.neither == 0, "\(tallies.neither) decisions followed neither version")
            #expect(tallies.gateFailures.isEmpty, "\(tallies.gateFailures)")
            // Both versions decided some of the calls, so the swaps really raced with the loads.
            #expect(tallies.onlyA > 0 && tallies.onlyB > 0, "\(tallies)")
            let records = observer.records
            let allowed = records.filter { $0.verdict.decision.isAllowed }.count
            #expect(allowed == loader.calls && allowed == tallies.allowed)
            #expect(records.count == Self.readers * Self.loadsPerReader)
            #expect(records.count - allowed == tallies.denied)
            print(
                "file stress: \(records.count) loads and \(swaps) swaps in \(elapsed), \(policy.loadCount) "
                    + "parses; \(tallies.onlyA) followed only A, \(tallies.onlyB) only B, "
                    + "\(tallies.allowed) allowed")
        }
    }
}

/// Counts of what the readers saw.
private struct Tally: Sendable {
    var onlyA = 0
    var onlyB = 0
    var both = 0
    var neither = 0
    var allowed = 0
    var denied = 0
    var gateFailures: [String] = []

    mutating func count(_ decision: AccessDecision, _ a: AccessDecision, _ b: AccessDecision) {
        if decision.isAllowed { allowed += 1 } else { denied += 1 }
        switch (decision == a, decision == b) {
        case (true, true): both += 1
        case (true, false): onlyA += 1
        case (false, true): onlyB += 1
        case (false, false): neither += 1
        }
    }

    mutating func add(_ other: Tally) {
        onlyA += other.onlyA
        onlyB += other.onlyB
        both += other.both
        neither += other.neither
        allowed += other.allowed
        denied += other.denied
        gateFailures += other.gateFailures
    }
}

/// Replaces a file atomically with each version in turn, on its own thread: one swap each time
/// a reader reports progress, so that it races with the decisions but never runs (or spins) while
/// the readers wait for a turn on a busy machine. It stops when the readers have finished.
private final class SwapWriter: @unchecked Sendable {
    private let url: URL
    private let versions: [String]
    private let readers: Int
    private let progress = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var finishedReaders = 0
    private var swaps = 0
    private var failure: (any Error)?

    init(url: URL, versions: [String], readers: Int) {
        self.url = url
        self.versions = versions
        self.readers = readers
    }

    func start() {
        Thread.detachNewThread { [self] in
            do {
                while true {
                    progress.wait()
                    if lock.withLock({ finishedReaders >= readers }) { break }
                    try replaceAtomically(url, with: versions[swaps % versions.count])
                    swaps += 1
                }
            } catch {
                failure = error
            }
            done.signal()
        }
    }

    /// Called by a reader after each decision: lets the writer make one more swap.
    func readerMadeProgress() {
        progress.signal()
    }

    /// Called by a reader when it has finished.
    func readerFinished() {
        lock.withLock { finishedReaders += 1 }
        progress.signal()
    }

    /// Waits for the thread to stop; returns how many swaps it made.
    func finish() throws -> Int {
        done.wait()
        if let failure { throw failure }
        return swaps
    }
}
