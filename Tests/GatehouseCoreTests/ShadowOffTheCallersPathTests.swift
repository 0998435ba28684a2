import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A shadow gatekeeper that answers only when released: every ask suspends until ``release()``,
/// then denies. It keeps the subject of the context each ask ran in.
private final class HeldPolicy: AccessPolicy, @unchecked Sendable {
    let name = "held"
    private let lock = NSLock()
    private var held: [CheckedContinuation<Void, Never>] = []
    private var isReleased = false
    private var subjects: [String?] = []

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        let subject = AccessContext.current.subject
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let answersNow = lock.withLock {
                subjects.append(subject)
                if !isReleased { held.append(continuation) }
                return isReleased
            }
            if answersNow { continuation.resume() }
        }
        return .deny(reason: "held answer")
    }

    /// Lets every ask, held or to come, answer.
    func release() {
        let waiting = lock.withLock {
            isReleased = true
            defer { held = [] }
            return held
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The subject of the context of each ask so far.
    var askedSubjects: [String?] { lock.withLock { subjects } }
}

/// A gatekeeper that fails as a remote service's timeout does.
private struct TimingOut: AccessPolicy {
    struct Timeout: Error, CustomStringConvertible {
        var description: String { "the decision service did not answer within 3 s" }
    }

    let name = "slow-remote"

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        throw Timeout()
    }
}

/// A gatekeeper that denies and cancels the task that asks it, as a caller cancelled while its
/// verdict was being made.
private struct DenyingAndCancelling: AccessPolicy {
    let name = "rules"

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        withUnsafeCurrentTask { $0?.cancel() }
        return .deny(reason: "no rule allows")
    }
}

/// A gatekeeper that cannot answer in a cancelled task.
private struct FailingWhenCancelled: AccessPolicy {
    let name = "candidate"

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try Task.checkCancellation()
        return .allow
    }
}

/// A shadow gatekeeper is asked off the caller's path: the call never waits for it, its record
/// arrives when it answers, and at most ``AccessGate/maximumShadowAsksInFlight`` asks are in
/// flight per gate (beyond that the ask is dropped, and a record says so).
@Suite("Shadow gatekeepers off the caller's path")
struct ShadowOffTheCallersPathTests {
    static let request = AccessRequest(subject: "alice", action: "read", resource: "docs/plan")

    @Test func aShadowThatNeverAnswersDoesNotDelayTheCallAndItsRecordArrivesWhenItAnswers() async throws {
        let observer = RecordingObserver()
        let shadow = HeldPolicy()
        let gate = AccessGate(
            gatekeepers: [SwitchPolicy("open", .allow)], shadow: [shadow], observer: observer, service: "s")
        let returned = Flag()
        let watchdog = Self.releasing(shadow, unless: returned)

        try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await gate.authorize(Self.request)
        }
        returned.set()
        // The call returned while its shadow was still unanswered: only the verdict is recorded.
        #expect(observer.records.map(\.isShadow) == [false])

        shadow.release()
        await gate.waitForShadowAnswers()
        watchdog.cancel()
        let records = observer.records
        #expect(records.map(\.isShadow) == [false, true])
        #expect(records[0].requestID == records[1].requestID)
        #expect(records[1].verdict.gatekeeper == "held" && records[1].verdict.reason == "held answer")
        #expect(records[1].service == "s" && !records[1].isDropped)
        #expect(shadow.askedSubjects == ["alice"], "the shadow is asked in the caller's context")
    }

    @Test func aFloodBeyondTheBoundDropsTheExtraShadowAsksAndRecordsEachDrop() async throws {
        let observer = RecordingObserver()
        let shadow = HeldPolicy()
        let gate = AccessGate(
            gatekeepers: [SwitchPolicy("open", .allow)], shadow: [shadow], observer: observer)
        let limit = AccessGate.maximumShadowAsksInFlight
        let returned = Flag()
        let watchdog = Self.releasing(shadow, unless: returned)

        for _ in 0..<(limit + 36) { try await gate.authorize(Self.request) }
        returned.set()
        let dropped = observer.records.filter(\.isDropped)
        #expect(dropped.count == 36)
        #expect(
            dropped.allSatisfy {
                $0.isShadow && $0.verdict.outcome == .failed && $0.verdict.gatekeeper == "held"
            })
        #expect(
            dropped.first?.verdict.reason
                == "not asked: \(limit) shadow asks of this gate were in flight, the most at once")

        shadow.release()
        await gate.waitForShadowAnswers()
        watchdog.cancel()
        let records = observer.records
        #expect(records.filter { !$0.isShadow }.count == limit + 36)
        #expect(records.filter { $0.isShadow && !$0.isDropped }.count == limit)
        #expect(records.filter(\.isDropped).count == 36)
        #expect(Set(records.filter(\.isShadow).map(\.requestID)).count == limit + 36)

        // Answered, they leave room again.
        try await gate.authorize(Self.request)
        await gate.waitForShadowAnswers()
        #expect(observer.records.last.map { $0.isShadow && !$0.isDropped } == true)
    }

    @Test func aShadowThatTimesOutIsRecordedAsFailedWithItsReasonAndNeverChangesTheVerdict() async throws {
        let observer = RecordingObserver()
        let gate = AccessGate(
            gatekeepers: [SwitchPolicy("open", .allow)], shadow: [TimingOut()], observer: observer)
        try await gate.authorize(Self.request)
        await gate.waitForShadowAnswers()
        let records = observer.records
        #expect(records.map(\.verdict.outcome) == [.allowed, .failed])
        #expect(records[1].verdict.reason == "the decision service did not answer within 3 s")
        #expect(records[1].isShadow && !records[1].isDropped)
    }

    @Test func theCallersCancellationNeitherCancelsNorSilencesItsShadow() async throws {
        let observer = RecordingObserver()
        let gate = AccessGate(
            gatekeepers: [DenyingAndCancelling()], shadow: [FailingWhenCancelled()], observer: observer)
        let verdict = try await Task { try await gate.decide(Self.request) }.value
        #expect(verdict.outcome == .denied)
        await gate.waitForShadowAnswers()
        let records = observer.records
        #expect(records.map(\.isShadow) == [false, true])
        #expect(records.last?.verdict.outcome == .allowed)
    }

    /// Releases `shadow` when `returned` is not set within four seconds, recording that a call
    /// waited for its shadow gatekeeper: so a test of a call that waits fails instead of hanging.
    private static func releasing(_ shadow: HeldPolicy, unless returned: Flag) -> Task<Void, Never> {
        Task {
            guard (try? await Task.sleep(for: .seconds(4))) != nil, !returned.isSet() else { return }
            Issue.record("the call waited for its shadow gatekeeper")
            shadow.release()
        }
    }
}

/// A flag one task sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    func isSet() -> Bool { lock.withLock { value } }
}
