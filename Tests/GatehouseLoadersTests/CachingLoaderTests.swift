import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

@Suite("CachingLoader")
struct CachingLoaderTests {
    @Test func aHitNeverReachesTheBase() async throws {
        let base = SpyLoader()
        let cache = CachingLoader(base, countLimit: 10)
        #expect(try await cache.load("a") == Data("a".utf8))
        for _ in 0..<5 { #expect(try await cache.load("a") == Data("a".utf8)) }
        #expect(base.calls == 1)
    }

    @Test func aMissAlwaysReachesTheBaseWithTheSameKey() async throws {
        let base = SpyLoader()
        let cache = CachingLoader(base, countLimit: 10)
        _ = try await cache.load("avatars/alice.png")
        _ = try await cache.load("avatars/bob.png")
        #expect(base.receivedKeys == ["avatars/alice.png", "avatars/bob.png"])
    }

    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() async throws {
        let base = SpyLoader()
        let cache = CachingLoader(base, countLimit: 3)
        for key in ["a", "b", "c", "a", "d"] { _ = try await cache.load(key) }
        // "a" was used after "b", so adding "d" evicted "b". Recency now: d, a, c.
        #expect(base.receivedKeys == ["a", "b", "c", "d"])
        for key in ["c", "a", "d"] { _ = try await cache.load(key) }
        #expect(base.calls == 4, "c, a and d were still cached")
        // Recency: d, a, c. Loading "b" evicts "c".
        _ = try await cache.load("b")
        _ = try await cache.load("c")
        #expect(base.receivedKeys == ["a", "b", "c", "d", "b", "c"])
        #expect(cache.count == 3)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aSeededSequenceOfAccessesMatchesAReferenceLeastRecentlyUsedModel(seed: UInt64) async throws {
        var generator = SplitMix64(seed: seed)
        let countLimit = 8
        let costLimit = 40
        let base = SpyLoader()
        // Each resource's cost is its length: keys are 1 to 12 bytes long.
        let cache = CachingLoader(base, countLimit: countLimit, costLimit: costLimit, cost: { $0.count })
        var model: [String] = []  // most recently used first
        func modelCost() -> Int { model.reduce(0) { $0 + $1.utf8.count } }
        for step in 0..<2000 {
            let length = Int(generator.next() % 12) + 1
            let key = String(
                repeating: Character(UnicodeScalar(UInt8(97 + generator.next() % 3))), count: length)
            let callsBefore = base.calls
            _ = try await cache.load(key)
            let missed = base.calls > callsBefore
            if let index = model.firstIndex(of: key) {
                #expect(!missed, "step \(step): \(key) should have been a hit")
                model.remove(at: index)
                model.insert(key, at: 0)
            } else {
                #expect(missed, "step \(step): \(key) should have been a miss")
                while !model.isEmpty
                    && (model.count >= countLimit || modelCost() > costLimit - key.utf8.count)
                {
                    model.removeLast()
                }
                model.insert(key, at: 0)
            }
            #expect(cache.count == model.count)
            #expect(cache.totalCost == modelCost())
            #expect(cache.count <= countLimit && cache.totalCost <= costLimit)
        }
    }

    @Test func theCountLimitHoldsExactly() async throws {
        let cache = CachingLoader(SpyLoader(), countLimit: 5)
        for index in 0..<5 { _ = try await cache.load("\(index)") }
        #expect(cache.count == 5)
        for index in 5..<50 {
            _ = try await cache.load("\(index)")
            #expect(cache.count == 5)
        }
    }

    @Test func theByteLimitHoldsExactly() async throws {
        let base = SpyLoader([
            "six": Data(count: 6), "four": Data(count: 4), "three": Data(count: 3), "ten": Data(count: 10),
        ])
        let cache = CachingLoader(base, countLimit: 100, byteLimit: 10)
        _ = try await cache.load("six")
        _ = try await cache.load("four")
        #expect(cache.totalCost == 10, "filled exactly to the limit, nothing evicted")
        #expect(cache.count == 2)
        _ = try await cache.load("three")
        #expect(cache.totalCost == 7, "six was evicted to make room for three")
        #expect(cache.count == 2)
        _ = try await cache.load("ten")
        #expect(cache.totalCost == 10)
        #expect(cache.count == 1)
    }

    @Test func anItemCostlierThanTheLimitIsReturnedButNotCached() async throws {
        let base = SpyLoader(["huge": Data(count: 11), "small": Data(count: 2)])
        let cache = CachingLoader(base, countLimit: 10, byteLimit: 10)
        _ = try await cache.load("small")
        #expect(try await cache.load("huge").count == 11)
        #expect(try await cache.load("huge").count == 11)
        #expect(base.receivedKeys == ["small", "huge", "huge"])
        #expect(cache.count == 1 && cache.totalCost == 2, "the small entry was not evicted for it")
    }

    @Test func aCountLimitOfZeroCachesNothing() async throws {
        let base = SpyLoader()
        let cache = CachingLoader(base, countLimit: 0)
        _ = try await cache.load("a")
        _ = try await cache.load("a")
        #expect(base.calls == 2)
        #expect(cache.count == 0)
    }

    @Test func concurrentMissesForOneKeyShareOneBaseLoad() async throws {
        let base = SuspendingLoader()
        let cache = CachingLoader(base, countLimit: 10)
        let started = Counter()
        try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    started.increment()
                    return try await cache.load("a")
                }
            }
            await base.waitUntilEntered(1)
            while started.value < 100 { await Task.yield() }
            for _ in 0..<10 { await Task.yield() }
            base.release()
            for try await value in group { #expect(value == Data("a".utf8)) }
        }
        #expect(base.calls == 1)
    }

    @Test func errorsAreNeverCached() async throws {
        let failures = Counter()
        let base = SuspendingLoader { key in
            failures.increment()
            if failures.value == 1 { throw LoadFailed() }
            return Data(key.utf8)
        }
        base.release()
        let cache = CachingLoader(base, countLimit: 10)
        await #expect(throws: LoadFailed.self) { try await cache.load("a") }
        #expect(cache.count == 0)
        #expect(try await cache.load("a") == Data("a".utf8))
        #expect(base.calls == 2, "the call after the failure reached the base again")
        _ = try await cache.load("a")
        #expect(base.calls == 2)
    }

    @Test func aSharedFailureReachesEveryWaiterAndIsThenForgotten() async throws {
        let base = SuspendingLoader { _ in throw LoadFailed() }
        let cache = CachingLoader(base, countLimit: 10)
        let first = Task { try await cache.load("a") }
        await base.waitUntilEntered(1)
        let joined = Counter()
        let second = Task {
            joined.increment()
            return try await cache.load("a")
        }
        while joined.value < 1 { await Task.yield() }
        base.release()
        await #expect(throws: LoadFailed.self) { try await first.value }
        await #expect(throws: LoadFailed.self) { try await second.value }
        await #expect(throws: LoadFailed.self) { try await cache.load("a") }
        #expect(base.calls >= 2, "after the failure a new call asks the base again")
    }

    @Test func cancellingTheCallerThatStartedALoadDoesNotCancelTheOthers() async throws {
        let base = SuspendingLoader()
        let cache = CachingLoader(base, countLimit: 10)
        let first = Task { try await cache.load("a") }
        await base.waitUntilEntered(1)
        let joined = Counter()
        let others = (0..<5).map { _ in
            Task {
                joined.increment()
                return try await cache.load("a")
            }
        }
        while joined.value < 5 { await Task.yield() }
        first.cancel()
        base.release()
        for other in others { #expect(try await other.value == Data("a".utf8)) }
        // The cancelled caller still waited for the shared load and received its result.
        #expect(try await first.value == Data("a".utf8))
        #expect(base.calls == 1)
        #expect(cache.count == 1)
    }

    @Test func removeValueInvalidatesAnEntryAndALoadInFlight() async throws {
        let base = SpyLoader()
        let cache = CachingLoader(base, countLimit: 10)
        _ = try await cache.load("a")
        #expect(cache.removeValue(forKey: "a") == Data("a".utf8))
        _ = try await cache.load("a")
        #expect(base.calls == 2)

        let slow = SuspendingLoader()
        let slowCache = CachingLoader(slow, countLimit: 10)
        let pending = Task { try await slowCache.load("b") }
        await slow.waitUntilEntered(1)
        slowCache.removeValue(forKey: "b")
        slow.release()
        #expect(try await pending.value == Data("b".utf8))
        #expect(slowCache.count == 0, "a load detached by invalidation is not cached")
    }

    @Test func removeAllEmptiesTheCache() async throws {
        let base = SpyLoader()
        let cache = CachingLoader(base, countLimit: 10)
        for key in ["a", "b", "c"] { _ = try await cache.load(key) }
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
        _ = try await cache.load("a")
        #expect(base.calls == 4)
    }

    @Test func concurrentLoadsOfManyKeysKeepTheLimits() async throws {
        let base = SpyLoader()
        let cache = CachingLoader(base, countLimit: 16, costLimit: 64, cost: { $0.count })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var generator = SplitMix64(seed: UInt64(worker))
                    for _ in 0..<500 {
                        let key = "k\(generator.next() % 40)"
                        let value = try await cache.load(key)
                        #expect(value == Data(key.utf8))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(cache.count <= 16 && cache.totalCost <= 64)
    }
}
