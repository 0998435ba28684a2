import Foundation
import GatehouseTestSupport
import Testing

@testable import GatehouseCore

/// The attacks of the security issue, on both decision paths: a deny written for one spelling
/// must not be passed by another spelling of the same key, nor by a `..` path.
@Suite("Resource identity through the proxy")
struct IdentityAttackTests {
    /// A dictionary-backed store: a Swift `Dictionary` treats canonically equivalent keys as one.
    struct SecretStore: ResourceLoading {
        let values: [String: String] = ["Keys/master": "the secret", "docs/café/plan": "plan"]
        let spy = SpyLoader()
        func load(_ key: String) async throws -> String {
            _ = try await spy.load(key)
            guard let value = values[key] else { throw CocoaError(.fileNoSuchFile) }
            return value
        }
    }

    /// Denies resources under a prefix, byte for byte, asked asynchronously.
    struct DenyPrefix: AccessPolicy {
        let prefix: String
        var name: String { "deny \(prefix)" }
        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            request.resource.utf8.starts(with: prefix.utf8) ? .deny(reason: "blocked") : .allow
        }
    }

    /// The same, never suspending, as the built-in policies.
    struct SynchronousDenyPrefix: AccessPolicy {
        let prefix: String
        var name: String { "deny \(prefix)" }
        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            request.resource.utf8.starts(with: prefix.utf8) ? .deny(reason: "blocked") : .allow
        }
    }

    static let bypasses = [
        "\u{212A}eys/master",  // KELVIN SIGN
        "docs/cafe\u{0301}/plan",  // NFD against a deny written in NFC
        "Keys/master\u{0000}",
        "public/../Keys/master",
        "./Keys/master",
        "/Keys/master",
    ]

    @Test(arguments: bypasses)
    func anEquivalentSpellingNeverPassesAnAsynchronousDeny(_ key: String) async throws {
        let store = SecretStore()
        let proxy = store.guarded(by: DenyPrefix(prefix: "Keys/"), DenyPrefix(prefix: "docs/café/"))
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load(key) }
        #expect(error?.gatekeeper == "(identity)")
        #expect(error?.reason.hasPrefix("the resource ") == true)
        #expect(store.spy.calls == 0)
    }

    @Test(arguments: bypasses)
    func anEquivalentSpellingNeverPassesASynchronousDeny(_ key: String) async throws {
        let store = SecretStore()
        let proxy = store.guarded(
            by: SynchronousDenyPrefix(prefix: "Keys/"), SynchronousDenyPrefix(prefix: "docs/café/"))
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load(key) }
        #expect(error?.gatekeeper == "(identity)")
        #expect(store.spy.calls == 0)
    }

    @Test func theDenialSaysWhatIsWrongAndIsObserved() async throws {
        let observer = RecordingObserver()
        let proxy = SpyLoader().guarded(by: SwitchPolicy("gate", allow), observer: observer)
        let error = await #expect(throws: AccessDenied.self) {
            try await proxy.load("tenants/acme/../globex/plan.txt")
        }
        #expect(
            error?.reason
                == "the resource has a \"..\" path component, which would name a resource outside its folder")
        #expect(error?.kind == .denied)
        #expect(observer.records.map(\.verdict.gatekeeper) == ["(identity)"])
    }

    @Test func aSubjectOrActionThatIsNotNFCTextIsRefused() async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(by: SwitchPolicy("gate", allow))
        let subjectError = await #expect(throws: AccessDenied.self) {
            try await AccessContext.$current.withValue(AccessContext(subject: "mallory\nalice")) {
                try await proxy.load("a")
            }
        }
        #expect(subjectError?.reason == "the subject holds the control character U+000A at position 7")
        let actionProxy = loader.guarded(by: SwitchPolicy("gate", allow), action: "re\u{0301}ad")
        await #expect(throws: AccessDenied.self) { try await actionProxy.load("a") }
        #expect(loader.calls == 0)
    }

    @Test(arguments: GatePath.allCases)
    func aProxyWhoseActionIsNotNFCTextRefusesEveryCallWhateverItsGatekeepers(path: GatePath) async throws {
        let loader = SpyLoader()
        let gatekeeper = path.gate("gate") { _ in .allow }
        let proxy = loader.guarded(by: gatekeeper, action: "re\u{0301}ad")
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(error?.gatekeeper == "(identity)")
        #expect(error?.reason.hasPrefix("the action is not in Unicode NFC") == true)
        let fine = loader.guarded(by: gatekeeper, action: "re\u{00E9}ad")
        _ = try await fine.load("a")
        #expect(loader.receivedKeys == ["a"])
    }

    @Test func textIdentityLetsAProxyGuardURLKeys() async throws {
        let loader = SpyLoader()
        let proxy = AccessProxy(loader, gatekeepers: [SwitchPolicy("gate", allow)], identity: .text)
        _ = try await proxy.load("https://example.com/a//b")
        #expect(loader.receivedKeys == ["https://example.com/a//b"])
    }

    @Test func theLoaderReceivesExactlyTheKeyTheGatesSaw() async throws {
        let loader = SpyLoader()
        let seen = SwitchPolicy("gate", allow)
        let proxy = loader.guarded(by: seen)
        _ = try await proxy.load("Keys/\u{00C5}")
        #expect(loader.receivedKeys == ["Keys/\u{00C5}"])
        #expect(seen.seen.map(\.resource) == ["Keys/\u{00C5}"])
    }
}
