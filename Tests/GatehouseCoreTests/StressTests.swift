import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// Thousands of concurrent loads through one proxy while its gates flip between allow and deny.
/// Every call has its own key, so each outcome can be matched with the decisions made for it.
@Suite("Concurrency stress")
struct StressTests {
    static let calls = 10_000

    /// A gate whose answer another task flips at any moment; it records what it answered for
    /// each resource, and yields after answering so that calls interleave.
    final class FlippingGate: AccessPolicy, @unchecked Sendable {
        let name: String
        private let lock = NSLock()
        private var open = true
        private var answers: [String: Bool] = [:]
        private var repeats = 0

        init(_ name: String) {
            self.name = name
        }

        func flip() { lock.withLock { open.toggle() } }

        /// What the gate answered for each resource it was asked about.
        var answered: [String: Bool] { lock.withLock { answers } }
        /// How many times it was asked again about a resource (each call has its own).
        var repeatedQuestions: Int { lock.withLock { repeats } }

        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            let isOpen = lock.withLock {
                if answers.updateValue(open, forKey: request.resource) != nil { repeats += 1 }
                return open
            }
            // Other calls run (and flip gates) between this answer and the next gate's.
            await Task.yield()
            return isOpen ? .allow : .deny(reason: "\(name) is closed")
        }
    }

    /// A loader that yields before answering, so that loads overlap with decisions.
    final class YieldingLoader: ResourceLoading, @unchecked Sendable {
        private let lock = NSLock()
        private var keys: [String] = []

        func load(_ key: String) async throws -> Data {
            await Task.yield()
            lock.withLock { keys.append(key) }
            return Data("content of \(key)".utf8)
        }

        var received: [String] { lock.withLock { keys } }
    }

    enum Outcome: Sendable {
        case loaded(Data)
        case denied(AccessDenied)
    }

    @Test func concurrentLoadsThroughFlippingGatesMatchTheirDecisionsOneByOne() async throws {
        let first = FlippingGate("first")
        let second = FlippingGate("second")
        let loader = YieldingLoader()
        let observer = RecordingObserver()
        let proxy = AccessProxy(loader, gatekeepers: [first, second], observer: observer)
        let started = ContinuousClock.now

        let outcomes = try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            for call in 0..<Self.calls {
                group.addTask {
                    // Calls flip the gates for each other, with different rhythms, so that all
                    // four combinations of the gates occur while other calls are between them.
                    for _ in 0...(call % 4) { await Task.yield() }
                    if call % 3 == 0 { first.flip() }
                    if call % 5 == 0 { second.flip() }
                    let context = AccessContext(subject: "user\(call % 7)")
                    return try await AccessContext.$current.withValue(context) {
                        do {
                            return (call, .loaded(try await proxy.load("k\(call)")))
                        } catch let denied as AccessDenied {
                            return (call, .denied(denied))
                        }
                    }
                }
            }
            var outcomes: [Int: Outcome] = [:]
            for try await (call, outcome) in group {
                outcomes[call] = outcome
            }
            return outcomes
        }
        let elapsed = ContinuousClock.now - started

        let firstAnswers = first.answered
        let secondAnswers = second.answered
        let records = observer.records
        let recordsByResource = Dictionary(grouping: records, by: \.request.resource)
        let loaded = Dictionary(grouping: loader.received, by: { $0 })
        var allowedCalls = 0
        var deniedCalls = 0
        for call in 0..<Self.calls {
            let key = "k\(call)"
            let callRecords = recordsByResource[key] ?? []
            #expect(callRecords.count == 1, "\(key): \(callRecords.count) records")
            guard let record = callRecords.first, let outcome = outcomes[call] else {
                Issue.record("\(key): no outcome or no record")
                continue
            }
            #expect(record.request.subject == "user\(call % 7)")
            let firstAllowed = firstAnswers[key] == true
            // The second gate is asked exactly when the first allowed.
            #expect((secondAnswers[key] != nil) == firstAllowed, "\(key)")
            let gatesAllowed = firstAllowed && secondAnswers[key] == true
            switch outcome {
            case .loaded(let data):
                allowedCalls += 1
                #expect(gatesAllowed, "\(key) returned data without both gates allowing")
                #expect(
                    record.verdict.decision == .allow && record.verdict.gatekeeper == "second",
                    "\(key): \(record)")
                #expect(loaded[key]?.count == 1, "\(key) reached the loader \(loaded[key]?.count ?? 0) times")
                #expect(data == Data("content of \(key)".utf8))
            case .denied(let denied):
                deniedCalls += 1
                #expect(!gatesAllowed, "\(key) was denied although both gates allowed")
                #expect(loaded[key] == nil, "\(key) was denied but reached the loader")
                let gate = firstAllowed ? "second" : "first"
                #expect(
                    denied.gatekeeper == gate && denied.reason == "\(gate) is closed" && !denied.isFailure
                )
                #expect(
                    record.verdict.decision == .deny(reason: "\(gate) is closed")
                        && record.verdict.gatekeeper == gate)
            }
        }
        #expect(first.repeatedQuestions == 0 && second.repeatedQuestions == 0)
        let allowRecords = records.filter { $0.verdict.decision.isAllowed }.count
        #expect(allowRecords == loader.received.count)
        #expect(allowRecords == allowedCalls)
        #expect(records.count - allowRecords == deniedCalls)
        #expect(allowedCalls + deniedCalls == Self.calls)
        // Every arrangement of the gates happened, so the flips really interleaved with the calls.
        let deniedByFirst = records.filter { $0.verdict.gatekeeper == "first" }.count
        let deniedBySecond = records.filter {
            $0.verdict.gatekeeper == "second" && !$0.verdict.decision.isAllowed
        }.count
        #expect(allowedCalls > 0 && deniedByFirst > 0 && deniedBySecond > 0)
        print(
            "stress: \(Self.calls) loads in \(elapsed): \(allowedCalls) allowed, "
                + "\(deniedByFirst) denied by first, \(deniedBySecond) denied by second")
    }
}
