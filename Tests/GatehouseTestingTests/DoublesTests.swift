import Foundation
import GatehouseCore
import GatehouseTesting
import Testing

/// The doubles as an app's test target sees them: public API only.
@Suite("GatehouseTesting's doubles")
struct DoublesTests {
    @Test func theRecordingObserverKeepsEveryDecisionInOrder() async throws {
        let observer = RecordingObserver()
        let switchable = SwitchPolicy(allowed: true)
        let photos = AccessProxy(SpyLoader(), gatekeepers: [switchable], observer: observer)

        _ = try await photos.load("IMG_0001")
        switchable.revoke()
        await #expect(throws: AccessDenied.self) { try await photos.load("IMG_0002") }

        #expect(observer.decisions == [.allow, SwitchPolicy.revoked])
        #expect(observer.records.map(\.request.resource) == ["IMG_0001", "IMG_0002"])
        observer.removeAll()
        #expect(observer.records.isEmpty)
    }

    @Test func aDeniedRequestNeverReachesTheSpyLoader() async throws {
        let loader = SpyLoader(["IMG_0001": Data("a cat".utf8)])
        let switchable = SwitchPolicy("owner", .deny(reason: "not yours"))
        let photos = AccessProxy(loader, gatekeepers: [switchable])

        let denied = await #expect(throws: AccessDenied.self) { try await photos.load("IMG_0001") }
        #expect(denied?.gatekeeper == "owner")
        #expect(denied?.reason == "not yours")
        #expect(loader.calls == 0)

        switchable.grant()
        #expect(try await photos.load("IMG_0001") == Data("a cat".utf8))
        #expect(try await photos.load("IMG_0009") == Data("IMG_0009".utf8))
        #expect(loader.receivedKeys == ["IMG_0001", "IMG_0009"])
        #expect(switchable.evaluations == 3)
        #expect(switchable.seen.map(\.resource) == ["IMG_0001", "IMG_0001", "IMG_0009"])
    }

    @Test func theSpyLoaderThrowsWhatItIsScriptedTo() async throws {
        let loader = SpyLoader { key in throw GateFailure("no such photo: \(key)") }
        await #expect(throws: GateFailure("no such photo: IMG_0001")) { try await loader.load("IMG_0001") }
        #expect(loader.calls == 1)
    }

    @Test func aThrowingGatekeeperFailsClosed() async throws {
        let loader = SpyLoader()
        let photos = AccessProxy(loader, gatekeepers: [ThrowingPolicy()])

        let denied = await #expect(throws: AccessDenied.self) { try await photos.load("IMG_0001") }
        #expect(denied?.kind == .failed)
        #expect(denied?.gatekeeper == "throwing")
        #expect(denied?.underlyingError as? GateFailure == GateFailure())
        #expect(loader.calls == 0)
    }

    @Test func aThrowingGatekeeperThrowsTheErrorItIsGiven() async throws {
        struct Offline: Error, Equatable {}
        let policy = ThrowingPolicy("remote", error: Offline())
        #expect(policy.name == "remote")
        await #expect(throws: Offline()) { try await policy.evaluate(AccessRequest(resource: "IMG_0001")) }
    }
}
