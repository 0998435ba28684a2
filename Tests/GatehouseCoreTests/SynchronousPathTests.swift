import Foundation
import GatehouseCore
import Testing

/// The proxy's synchronous path: taken when every gate (combinators and their members included)
/// decides synchronously; it must give exactly the answers of the asynchronous path.
@Suite("AccessProxy synchronous path")
struct SynchronousPathTests {
    @Test func aChainOfSynchronousGatesIsNeverAskedAsynchronously() async throws {
        let first = SynchronousSwitch("first", allow)
        let second = SynchronousSwitch("second", allow)
        let loader = SpyLoader()
        let proxy = loader.guarded(by: first, second)
        _ = try await proxy.load("a")
        _ = try await proxy.load("b")
        #expect(first.evaluations == 2)
        #expect(second.evaluations == 2)
        #expect(first.asynchronousEvaluations == 0)
        #expect(second.asynchronousEvaluations == 0)
        #expect(loader.receivedKeys == ["a", "b"])
    }

    @Test func oneAsynchronousGateMovesTheWholeChainToTheAsynchronousPath() async throws {
        let first = SynchronousSwitch("first", allow)
        let second = SwitchPolicy("second", allow)
        let proxy = SpyLoader().guarded(by: first, second)
        _ = try await proxy.load("a")
        #expect(first.asynchronousEvaluations == 1)
        #expect(second.evaluations == 1)
    }

    @Test(arguments: 0..<4)
    func theFirstRefusalEndsTheCallAndNamesItsGate(refusing: Int) async throws {
        let gates = (0..<4).map { SynchronousSwitch("gate-\($0)", $0 == refusing ? deny("no \($0)") : allow) }
        let loader = SpyLoader()
        let observer = RecordingObserver()
        let proxy = loader.guarded(by: gates, observer: observer)
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(error?.policy == "gate-\(refusing)")
        #expect(error?.reason == "no \(refusing)")
        #expect(error?.kind == .denied)
        #expect(gates.map(\.evaluations) == (0..<4).map { $0 <= refusing ? 1 : 0 })
        #expect(loader.calls == 0)
        #expect(observer.records.map(\.gate) == ["gate-\(refusing)"])
        #expect(observer.records.first?.decision == .deny(reason: "no \(refusing)"))
    }

    @Test(arguments: 0..<3)
    func aThrowingGateDeniesAsAGateFailureNamingIt(throwing: Int) async throws {
        let gates = (0..<3).map { SynchronousSwitch("gate-\($0)", allow) }
        gates[throwing].fail(with: GateBroke())
        let loader = SpyLoader()
        let observer = RecordingObserver()
        let proxy = loader.guarded(by: gates, observer: observer)
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(error?.policy == "gate-\(throwing)")
        #expect(error?.kind == .gateFailure)
        #expect(error?.reason == "the policy store is unreachable")
        #expect(error?.underlyingError as? GateBroke == GateBroke())
        #expect(loader.calls == 0)
        #expect(observer.records.first?.isGateFailure == true)
    }

    @Test func anAllowedCallIsRecordedOnceUnderTheLastGate() async throws {
        let observer = RecordingObserver()
        let instant = Date(timeIntervalSince1970: 1_790_000_000)
        let proxy = AccessProxy(
            SpyLoader(), gatekeepers: [SynchronousSwitch("first", allow), SynchronousSwitch("last", allow)],
            observer: observer, clock: { instant })
        _ = try await proxy.load("a")
        #expect(observer.records.count == 1)
        #expect(observer.records.first?.gate == "last")
        #expect(observer.records.first?.decision == .allow)
        #expect(observer.records.first?.instant == instant)
        #expect(observer.records.first?.request.resource == "a")
    }

    @Test func theRequestCarriesTheTaskLocalContextTheActionAndTheExactKey() async throws {
        let gate = SynchronousSwitch("gate", allow)
        let proxy = SpyLoader().guarded(by: gate, action: "preview")
        let key = "avatars/Ünïcode name/x.png"
        let context = AccessContext(subject: "alice", attributes: ["device": "phone"])
        _ = try await AccessContext.$current.withValue(context) { try await proxy.load(key) }
        _ = try await proxy.load("outside")
        #expect(
            gate.seen == [
                AccessRequest(
                    subject: "alice", action: "preview", resource: key, attributes: ["device": "phone"]),
                AccessRequest(subject: nil, action: "preview", resource: "outside"),
            ])
    }

    @Test func aGrantRevokedBetweenTwoCallsDeniesTheSecond() async throws {
        let gate = SynchronousSwitch("gate", allow)
        let loader = SpyLoader()
        let proxy = loader.guarded(by: gate)
        _ = try await proxy.load("a")
        gate.set(deny("revoked"))
        await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(loader.calls == 1)
    }

    @Test func authorizeTakesTheSamePathWithoutLoading() async throws {
        let gate = SynchronousSwitch("gate", allow)
        let loader = SpyLoader()
        let proxy = loader.guarded(by: gate)
        try await proxy.authorize("a")
        try await proxy.authorize(proxy.request(for: "b"))
        gate.set(deny("no"))
        await #expect(throws: AccessDenied.self) { try await proxy.authorize("a") }
        #expect(gate.evaluations == 3)
        #expect(gate.asynchronousEvaluations == 0)
        #expect(loader.calls == 0)
    }

    /// A chain that never suspends adds no cancellation point: the cancelled task reaches the
    /// loader as it would without the proxy, and gets the loader's own answer.
    @Test func aCancelledTaskIsForwardedToTheLoaderAsWithoutTheProxy() async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(by: SynchronousSwitch("gate", allow))
        let data = try await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await proxy.load("a")
        }.value
        #expect(data == Data("a".utf8))
        #expect(loader.calls == 1)
    }

    @Test func aCancelledTaskIsStillDeniedWhenAGateRefuses() async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(by: SynchronousSwitch("gate", deny("no")))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await proxy.load("a")
        }
        await #expect(throws: AccessDenied.self) { try await task.value }
        #expect(loader.calls == 0)
    }

    @Test func combinatorsOfSynchronousMembersStayOnTheSynchronousPath() async throws {
        let a = SynchronousSwitch("a", allow)
        let b = SynchronousSwitch("b", deny("b says no"))
        let c = SynchronousSwitch("c", deny("c says no"))
        let loader = SpyLoader()
        let proxy = loader.guarded(by: AllOf(a, AnyOf(b, Not(c))))
        _ = try await proxy.load("x")
        c.set(allow)
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("y") }
        #expect(error?.policy == "allOf")
        #expect(
            error?.reason
                == "anyOf: no policy allowed (b: b says no; not(c): c allows, and not(c) inverts it)")
        #expect([a, b, c].map(\.asynchronousEvaluations) == [0, 0, 0])
        #expect(loader.receivedKeys == ["x"])
    }

    @Test func aCombinatorWithOneAsynchronousMemberDecidesAsynchronously() async throws {
        let a = SynchronousSwitch("a", allow)
        let b = SwitchPolicy("b", allow)
        let proxy = SpyLoader().guarded(by: AllOf(a, Not(Not(b))))
        _ = try await proxy.load("x")
        #expect(a.asynchronousEvaluations == 1)
        #expect(b.evaluations == 1)
    }

    @Test func combinatorsAnswerTheSameOnBothPaths() async throws {
        let request = AccessRequest(subject: "alice", resource: "a")
        for mask in 0..<8 {
            let decisions = (0..<3).map { mask & (1 << $0) != 0 ? allow : deny("no \($0)") }
            let synchronous = decisions.enumerated().map { SynchronousSwitch("p\($0.offset)", $0.element) }
            let asynchronous = decisions.enumerated().map { SwitchPolicy("p\($0.offset)", $0.element) }
            let pairs: [(any AccessPolicy, any AccessPolicy)] = [
                (AllOf(synchronous), AllOf(asynchronous)),
                (AnyOf(synchronous), AnyOf(asynchronous)),
                (Not(synchronous[0]), Not(asynchronous[0])),
            ]
            for (fast, slow) in pairs {
                #expect(
                    try await fast.evaluate(request) == slow.evaluate(request), "mask \(mask): \(fast.name)")
            }
        }
        for empty in [AllOf([]) as any AccessPolicy, AnyOf([])] {
            await #expect(throws: EmptyCombinatorError.self) { try await empty.evaluate(request) }
            #expect(throws: EmptyCombinatorError.self) {
                try (empty as? any SynchronousAccessPolicy)?.decide(request)
            }
        }
    }
}
