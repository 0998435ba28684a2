import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// Many decisions at once (`AccessPolicy.explain(batch:)`) go through the one decision loop: the
/// gate asks each gatekeeper once for all the requests the ones before it allowed, every holder
/// passes the whole batch on, a default gatekeeper is asked one by one, and a batch answered with
/// the wrong count fails every request of it.
@Suite("Batches of decisions")
struct BatchDecisionTests {
    /// Allows names under `docs/`, and listing any folder; counts its batches and single asks.
    final class BatchSpy: AccessPolicy, @unchecked Sendable {
        let name: String
        /// Answers to give instead of the right ones: `nil` answers right.
        let override: (@Sendable ([AccessRequest]) -> [Result<AccessExplanation, any Error>])?
        private let lock = NSLock()
        private var batchSizes: [Int] = []
        private var singles = 0

        init(
            _ name: String = "spy",
            override: (@Sendable ([AccessRequest]) -> [Result<AccessExplanation, any Error>])? = nil
        ) {
            self.name = name
            self.override = override
        }

        var batches: [Int] { lock.withLock { batchSizes } }
        var singleAsks: Int { lock.withLock { singles } }

        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            lock.withLock { singles += 1 }
            return Self.decide(request)
        }

        func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
            lock.withLock { batchSizes.append(requests.count) }
            if let override { return override(requests) }
            return requests.map { .success(AccessExplanation(Self.decide($0))) }
        }

        static func decide(_ request: AccessRequest) -> AccessDecision {
            request.action == .list || request.resource.hasPrefix("docs/")
                ? .allow : .deny(reason: "not a document")
        }
    }

    /// Allows every name but `docs/b`, asked one by one (the default batch).
    struct Plain: AccessPolicy {
        let name = "plain"
        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            if request.resource == "boom" { throw PlainFault() }
            return request.resource == "docs/b" ? .deny(reason: "not b") : .allow
        }
    }

    struct PlainFault: Error {}

    static let names = ["docs/a", "docs/b", "other/c", "boom", "docs/d"]
    static var requests: [AccessRequest] { names.map { AccessRequest(subject: "alice", resource: $0) } }

    @Test func theGateAsksEachGatekeeperOnceForTheRequestsTheOnesBeforeItAllowed() async throws {
        let spy = BatchSpy()
        let gate = AccessGate(gatekeepers: [Plain(), spy])
        let allowed = try await gate.permitted(Self.requests).map(\.resource)
        #expect(allowed == ["docs/a", "docs/d"])
        // Plain denies docs/b and fails for boom: the spy is asked about the three others at once.
        #expect(spy.batches == [3] && spy.singleAsks == 0)
    }

    @Test func aListingThroughTheProxyAsksOneBatchForAllItsNames() async throws {
        let spy = BatchSpy()
        let proxy = AccessProxy(Listing(names: Self.names), gatekeepers: [AlwaysAllowing(), spy])
        let listed = try await AccessContext.with(subject: "alice") { try await proxy.keys(under: "") }
        #expect(listed == ["docs/a", "docs/b", "docs/d"])
        // The folder's own check is a single decision; the listed names are one batch (boom is
        // a name like any other here).
        #expect(spy.batches == [5] && spy.singleAsks == 1)
    }

    @Test func everyHolderPassesTheWholeBatchOn() async throws {
        let cases: [(BatchSpy) -> any AccessPolicy] = [
            { AllOf(AlwaysAllowing(), $0) }, { AnyOf(Plain(), $0) }, { Not($0) }, { AllOf(Not(Not($0))) },
        ]
        for (index, hold) in cases.enumerated() {
            let spy = BatchSpy()
            let requests = Self.requests.filter { $0.resource != "boom" }
            _ = try await AccessGate(gatekeepers: [hold(spy)]).permitted(requests)
            // AnyOf asks the spy only about what Plain denied.
            #expect(spy.batches == [index == 1 ? 1 : 4], "holder \(index)")
            #expect(spy.singleAsks == 0)
        }
    }

    @Test func aBatchDecidesAsEachRequestAloneWould() async throws {
        let holders: [any AccessPolicy] = [
            Plain(), BatchSpy(), AllOf(Plain(), BatchSpy()), AnyOf(BatchSpy(), Plain()), Not(Plain()),
            AnyOf(AllOf(Plain()), Not(BatchSpy())),
        ]
        for holder in holders {
            let gate = AccessGate(gatekeepers: [holder])
            var alone: [String] = []
            for request in Self.requests {
                if try await gate.decide(request).isAllowed { alone.append(request.resource) }
            }
            #expect(try await gate.permitted(Self.requests).map(\.resource) == alone, "\(holder.name)")
        }
    }

    @Test(arguments: [0, 1, 2])
    func aBatchAnsweredWithTheWrongCountFailsEveryRequestOfIt(extra: Int) async throws {
        let spy = BatchSpy(
            "counting",
            override: { requests in
                let count = extra == 0 ? requests.count - 1 : requests.count + extra
                return (0..<count).map { _ in .success(AccessExplanation(.allow)) }
            })
        let gate = AccessGate(gatekeepers: [Not(spy)])
        let requests = Self.requests.filter { $0.resource != "boom" }
        #expect(try await gate.permitted(requests).isEmpty)
        let verdicts = try await gate.decide(requests.map { ($0, nil) }, identity: .path, explained: true)
        #expect(verdicts.allSatisfy { $0.outcome == .failed })
        #expect(verdicts.first?.reason?.contains("counting answered") == true)
    }

    @Test func aFailureInABatchFailsThatRequestAloneAndNotKeepsItFailed() async throws {
        let gate = AccessGate(gatekeepers: [Not(Plain())])
        let verdicts = try await gate.decide(
            Self.requests.map { ($0, nil) }, identity: .path, explained: true)
        #expect(verdicts.map(\.outcome) == [.denied, .allowed, .denied, .failed, .denied])
    }
}

/// Allows everything, asked one by one.
private struct AlwaysAllowing: AccessPolicy {
    let name = "always"
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision { .allow }
}

/// A listing of fixed names.
private struct Listing: ResourceLoading, ResourceListing {
    let names: [String]
    func load(_ key: String) async throws -> String { key }
    func keys(under prefix: String) async throws -> [String] { names }
}
