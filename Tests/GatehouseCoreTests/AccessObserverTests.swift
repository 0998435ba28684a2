import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("AccessObserver")
struct AccessObserverTests {
    @Test func theObserverSeesEveryDecisionWithTheDecidingGate() async throws {
        let observer = RecordingObserver()
        let first = SwitchPolicy("first", allow)
        let second = SwitchPolicy("second", allow)
        let instant = Date(timeIntervalSince1970: 1_790_000_000)
        let proxy = AccessProxy(
            SpyLoader(), gatekeepers: [first, second], observer: observer, clock: { instant })
        _ = try await proxy.load("a")
        second.set(deny("closed"))
        _ = try? await proxy.load("b")
        let records = observer.records
        #expect(records.count == 2)
        #expect(records[0].verdict.decision == .allow)
        #expect(records[0].verdict.gatekeeper == "second")
        #expect(records[0].request.resource == "a")
        #expect(records[0].instant == instant)
        #expect(records[1].verdict.decision == .deny(reason: "closed"))
        #expect(records[1].verdict.gatekeeper == "second")
        #expect(records[1].verdict.outcome != .failed)
    }

    @Test func theObserverSeesGateFailures() async throws {
        let observer = RecordingObserver()
        let proxy = SpyLoader().guarded(by: ThrowingPolicy(), observer: observer)
        _ = try? await proxy.load("a")
        #expect(observer.records.count == 1)
        #expect(observer.records.first?.verdict.outcome == .failed)
        #expect(observer.records.first?.verdict.gatekeeper == "throwing")
    }

    @Test func observingDoesNotChangeTheOutcome() async throws {
        let gate = SwitchPolicy("gate", allow)
        let observed = SpyLoader()
        let plain = SpyLoader()
        let withObserver = observed.guarded(by: gate, observer: RecordingObserver())
        let without = plain.guarded(by: gate)
        #expect(try await withObserver.load("k") == without.load("k"))
        gate.set(deny("no"))
        let a = await #expect(throws: AccessDenied.self) { try await withObserver.load("k") }
        let b = await #expect(throws: AccessDenied.self) { try await without.load("k") }
        #expect(a?.reason == b?.reason)
        #expect(observed.calls == plain.calls)
    }
}
