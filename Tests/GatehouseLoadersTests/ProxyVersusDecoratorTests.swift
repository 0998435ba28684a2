import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

/// The lesson in code: a proxy controls **whether** the real loader is reached; a decorator (the
/// cache) changes **how** it is reached. The DocC article `ProxyVersusDecorator` (GatehouseCore's
/// catalog) walks through these tests.
@Suite("Proxy versus decorator")
struct ProxyVersusDecoratorTests {
    @Test func aDecoratorAlwaysReachesTheRealLoaderOnAMiss() async throws {
        let loader = SpyLoader()
        let cache = CachingLoader(loader, countLimit: 2)
        for key in ["a", "b", "c", "a"] { _ = try await cache.load(key) }
        // Every miss went through, with its exact key: "a" was evicted by "c", so it missed twice.
        // The cache only changed how often the loader was reached, never whether it could be.
        #expect(loader.receivedKeys == ["a", "b", "c", "a"])
    }

    @Test func aProxyMayNeverReachTheRealLoader() async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(by: SwitchPolicy(allowed: false))
        for key in ["a", "b", "a"] {
            await #expect(throws: AccessDenied.self) { try await proxy.load(key) }
        }
        #expect(loader.calls == 0)
    }

    @Test func theProxyChecksOnEveryCallEvenWhenACacheBehindItIsWarm() async throws {
        let loader = SpyLoader()
        let policy = SwitchPolicy(allowed: true)
        let service = AccessProxy(CachingLoader(loader, countLimit: 10), gatekeepers: [policy])
        for _ in 0..<5 { _ = try await service.load("report.pdf") }
        #expect(policy.evaluations == 5, "the gate decided every call")
        #expect(loader.calls == 1, "the cache behind the gate served the other four")
    }

    @Test func aCacheOutsideTheProxyKeepsServingAfterAccessIsRevoked() async throws {
        let loader = SpyLoader()
        let policy = SwitchPolicy(allowed: true)
        // The hazard: CachingLoader(AccessProxy(loader)), which does not compile as written (so
        // the gate is hidden here). The cache is the outermost layer, so a
        // hit is answered before the proxy is asked. Once a resource has been loaded while access
        // was granted, revoking access changes nothing for it: the cache never asks the gate, and
        // the proxy behind it is never reached again until the entry is evicted.
        let wrongOrder = CachingLoader(HiddenGate(AccessProxy(loader, gatekeepers: [policy])), countLimit: 10)
        _ = try await wrongOrder.load("salaries.csv")
        policy.revoke()
        let servedAfterRevocation = try await wrongOrder.load("salaries.csv")
        #expect(servedAfterRevocation == Data("salaries.csv".utf8), "the revoked resource was served anyway")
        #expect(policy.evaluations == 1, "the gate was asked only once, before the revocation")
    }

    @Test func theSameCacheBehindTheProxyDeniesAfterRevocation() async throws {
        let loader = SpyLoader()
        let policy = SwitchPolicy(allowed: true)
        let cache = CachingLoader(loader, countLimit: 10)
        let rightOrder = AccessProxy(cache, gatekeepers: [policy])
        _ = try await rightOrder.load("salaries.csv")
        policy.revoke()
        await #expect(throws: AccessDenied.self) { try await rightOrder.load("salaries.csv") }
        #expect(cache.count == 1, "the entry is still cached, yet it is not served: the gate comes first")
        #expect(loader.calls == 1)
    }

    @Test(arguments: [Arrangement.proxy, .proxyInFrontOfCache])
    func theGateContractHoldsWhenTheProxyIsTheOutermostLayer(_ arrangement: Arrangement) async {
        #expect(await gateContractViolations(for: arrangement.make) == [])
    }

    @Test(arguments: [Arrangement.decoratorAsGate, .cacheInFrontOfProxy])
    func swappingADecoratorInWhereTheGateShouldBeBreaksTheGateContract(_ arrangement: Arrangement) async {
        let violations = await gateContractViolations(for: arrangement.make)
        #expect(!violations.isEmpty)
        #expect(violations.contains("a call after revocation was served"))
        #expect(violations.contains("the gate was not asked on every call"))
    }

    @Test func aDecoratorStandingInForTheGateLetsDeniedCallsThrough() async {
        let violations = await gateContractViolations(for: Arrangement.decoratorAsGate.make)
        #expect(violations.contains("a denied call returned a resource"))
        #expect(violations.contains("a denied call reached the loader"))
        // The granted call was answered from the entry the denied call left in the cache.
        #expect(violations.contains("a granted call did not reach the loader exactly once with its key"))
    }

    @Test func aCacheOutsideTheProxyServesOneSubjectsResourceToAnother() async throws {
        let loader = SpyLoader()
        // The hazard again, and worse than a stale grant: the cache's key is the resource key
        // alone, with no subject, so what alice was allowed to load is served to bob.
        let wrongOrder = CachingLoader(
            HiddenGate(AccessProxy(loader, gatekeepers: [OwnAvatarsOnly()])), countLimit: 10)
        let alices = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await wrongOrder.load("avatars/alice.png")
        }
        let servedToBob = try await AccessContext.$current.withValue(AccessContext(subject: "bob")) {
            try await wrongOrder.load("avatars/alice.png")
        }
        #expect(servedToBob == alices, "bob was served the avatar alice loaded")
        #expect(loader.receivedKeys == ["avatars/alice.png"], "only alice's call reached the loader")
    }

    @Test func theSameCacheBehindTheProxyRefusesTheOtherSubject() async throws {
        let loader = SpyLoader()
        let cache = CachingLoader(loader, countLimit: 10)
        let rightOrder = AccessProxy(cache, gatekeepers: [OwnAvatarsOnly()])
        _ = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await rightOrder.load("avatars/alice.png")
        }
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.$current.withValue(AccessContext(subject: "bob")) {
                try await rightOrder.load("avatars/alice.png")
            }
        }
        #expect(cache.count == 1, "alice's avatar is cached, yet bob is refused: the gate comes first")
        #expect(loader.receivedKeys == ["avatars/alice.png"])
    }
}

/// Lets each subject read only their own avatar, `avatars/<subject>.png`.
private struct OwnAvatarsOnly: AccessPolicy {
    let name = "ownAvatar"

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        guard let subject = request.subject, request.resource == "avatars/\(subject).png" else {
            return .deny(reason: "\(request.subject ?? "no subject") may read only their own avatar")
        }
        return .allow
    }
}

/// Where the cache and the gate stand relative to each other, for the gate contract.
enum Arrangement: String, Sendable, CustomTestStringConvertible {
    /// `AccessProxy(loader)`: the gate alone.
    case proxy
    /// `AccessProxy(CachingLoader(loader))`: the safe order.
    case proxyInFrontOfCache
    /// `CachingLoader(loader)` used as if it were the gate: it cannot decide anything.
    case decoratorAsGate
    /// `CachingLoader(AccessProxy(loader))`: the hazard.
    case cacheInFrontOfProxy

    var testDescription: String { rawValue }

    func make(_ loader: SpyLoader, _ policy: SwitchPolicy) -> any ResourceLoading<String, Data> {
        switch self {
        case .proxy:
            return AccessProxy(loader, gatekeepers: [policy])
        case .proxyInFrontOfCache:
            return AccessProxy(CachingLoader(loader, countLimit: 10), gatekeepers: [policy])
        case .decoratorAsGate:
            return CachingLoader(loader, countLimit: 10)
        case .cacheInFrontOfProxy:
            return CachingLoader(HiddenGate(AccessProxy(loader, gatekeepers: [policy])), countLimit: 10)
        }
    }
}

/// Runs the gate's contract against whatever `makeGuarded` puts in front of a loader, and returns
/// the violations (none for a real gate):
/// - a denied call neither returns a resource nor reaches the loader, and throws ``AccessDenied``;
/// - a granted call returns the loader's resource and adds exactly one loader call, with the exact key;
/// - revocation takes effect on the very next call;
/// - the gate is asked on every call.
func gateContractViolations(
    for makeGuarded: (SpyLoader, SwitchPolicy) -> any ResourceLoading<String, Data>
) async -> [String] {
    let loader = SpyLoader()
    let policy = SwitchPolicy(allowed: false)
    let guarded = makeGuarded(loader, policy)
    var violations: [String] = []

    do {
        _ = try await guarded.load("doc")
        violations.append("a denied call returned a resource")
    } catch is AccessDenied {
    } catch {
        violations.append("a denied call threw \(error) instead of AccessDenied")
    }
    if loader.calls > 0 { violations.append("a denied call reached the loader") }

    policy.grant()
    let keysBeforeGrantedCall = loader.receivedKeys
    do {
        if try await guarded.load("doc") != Data("doc".utf8) {
            violations.append("a granted call returned something other than the loader's resource")
        }
    } catch {
        violations.append("a granted call failed with \(error)")
    }
    // Counted, not just the last key: a granted call answered from a cache filled by the denied
    // call never reached the loader, although the loader's last key is "doc" either way.
    if loader.receivedKeys != keysBeforeGrantedCall + ["doc"] {
        violations.append("a granted call did not reach the loader exactly once with its key")
    }

    policy.revoke()
    do {
        _ = try await guarded.load("doc")
        violations.append("a call after revocation was served")
    } catch is AccessDenied {
    } catch {
        violations.append("a call after revocation threw \(error) instead of AccessDenied")
    }

    if policy.evaluations != 3 { violations.append("the gate was not asked on every call") }
    return violations
}
