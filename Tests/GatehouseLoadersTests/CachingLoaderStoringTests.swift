import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

@Suite("CachingLoader: store, remove, list")
struct CachingLoaderStoringTests {
    @Test func aReadAfterAWriteNeverReturnsTheCachedOldValue() async throws {
        let base = HeldStore(["k": 1])
        let cache = CachingLoader(base, countLimit: 10)
        #expect(try await cache.load("k") == 1)
        #expect(try await cache.load("k") == 1)
        #expect(base.loads == 1)
        try await cache.store(2, for: "k")
        #expect(base.stores == 1)
        #expect(try await cache.load("k") == 2)
        #expect(try await cache.load("k") == 2)
        #expect(base.loads == 2)
    }

    @Test func aLoadInFlightDuringAWriteDoesNotCacheTheOldValue() async throws {
        let base = HeldStore(["k": 1])
        let cache = CachingLoader(base, countLimit: 10)
        base.hold()
        let early = Task { try await cache.load("k") }
        await base.waitUntilALoadIsHeld()  // it read 1 and waits
        try await cache.store(2, for: "k")  // the write completes while the load is in flight
        base.release()
        #expect(try await early.value == 1)  // it started before the write: the old value is fine
        #expect(try await cache.load("k") == 2)  // but it was not cached
        #expect(cache.count == 1)
    }

    @Test func aLoadInFlightDuringARemoveDoesNotCacheTheRemovedValue() async throws {
        let base = HeldStore(["k": 1])
        let cache = CachingLoader(base, countLimit: 10)
        base.hold()
        let early = Task { try await cache.load("k") }
        await base.waitUntilALoadIsHeld()
        try await cache.remove("k")
        base.release()
        #expect(try await early.value == 1)
        await #expect(throws: ResourceNotFound.self) { try await cache.load("k") }
        #expect(cache.count == 0)
    }

    @Test func aFailedRemoveStillInvalidatesTheKey() async throws {
        let base = HeldStore(["k": 1])
        let cache = CachingLoader(base, countLimit: 10)
        #expect(try await cache.load("k") == 1)
        #expect(cache.count == 1)
        await #expect(throws: ResourceNotFound.self) { try await cache.remove("other") }
        try await cache.remove("k")
        #expect(cache.count == 0)
        await #expect(throws: ResourceNotFound.self) { try await cache.remove("k") }
    }

    @Test func aListingIsForwardedEveryTimeAndNotCached() async throws {
        let base = HeldStore(["docs/a": 1, "docs/b": 2])
        let cache = CachingLoader(base, countLimit: 10)
        #expect(try await cache.keys(under: "docs") == ["docs/a", "docs/b"])
        try await cache.store(3, for: "docs/c")
        #expect(try await cache.keys(under: "docs") == ["docs/a", "docs/b", "docs/c"])
        #expect(base.listings == 2)
        #expect(cache.count == 0)
    }

    @Test func writesBehindTheGateAreAskedAboutBeforeTheCacheSeesThem() async throws {
        let base = HeldStore(["k": 1])
        let gate = SwitchPolicy(allowed: false)
        let proxy = AccessProxy(CachingLoader(base, countLimit: 10), gatekeepers: [gate])
        await #expect(throws: AccessDenied.self) { try await proxy.store(2, for: "k") }
        await #expect(throws: AccessDenied.self) { try await proxy.remove("k") }
        #expect(base.stores == 0)
        #expect(base.removes == 0)
    }
}
