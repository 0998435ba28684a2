import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

/// `CachingLoader(AccessProxy(...))` does not compile, and the compiler says why; the safe order
/// does.
@Suite("A cache in front of a gate does not compile")
struct CacheInFrontOfGateTests {
    @Test func theSafeOrderCompilesAndAsksTheGateOnEveryCall() async throws {
        let loader = SpyLoader()
        let policy = SwitchPolicy(allowed: true)
        let avatars = AccessProxy(CachingLoader(loader, countLimit: 10), gatekeepers: [policy])
        let fluent = CachingLoader(loader, countLimit: 10, byteLimit: 1 << 20).guarded(by: policy)
        _ = try await avatars.load("a")
        _ = try await fluent.load("a")
        policy.revoke()
        await #expect(throws: AccessDenied.self) { try await avatars.load("a") }
        #expect(policy.evaluations == 3)
    }

    @Test func theWrongOrderFailsToCompileWithAMessageThatSaysToPutTheCacheBehindTheGate() async throws {
        let snippet = """
            import Foundation
            import GatehouseCore
            import GatehouseLoaders
            let proxy = AccessProxy(MemoryLoader<String, Data>(), gatekeepers: [])
            let cache = CachingLoader(proxy, countLimit: 10)
            let bytes = CachingLoader(proxy, countLimit: 10, byteLimit: 1000)
            """
        let result = try await typecheck(snippet)
        #expect(result.status != 0)
        let message =
            "is unavailable: put the cache behind the gate, AccessProxy(CachingLoader(loader, ...), ...)"
        let errors = result.errors.split(separator: "\n").filter { $0.hasPrefix(result.file + ":") }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.contains("error: 'init(_:countLimit:") && $0.contains(message) })
    }
}
