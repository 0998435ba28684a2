import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// `keys(under:)` through the proxy: the folder is asked `list`, each key `read`, and a key the
/// caller may not read is never seen.
@Suite("AccessProxy: listing")
struct AccessProxyListingTests {
    private let contents = [
        "docs/a.txt": "a", "docs/private-b.txt": "b", "docs/2026/c.txt": "c", "docs/broken.txt": "d",
        "other/e.txt": "e",
    ]

    /// Allows `list` on any folder and `read` on any key but `private-*` ones; fails (throws) on
    /// `broken.txt`.
    private func readingGate(_ path: GatePath) -> any AccessPolicy {
        path.gate("rules") { request in
            if request.resource.hasSuffix("broken.txt") { throw GateFailure() }
            if request.action == "list" { return .allow }
            if request.action == "read" && !request.resource.contains("private-") { return .allow }
            return .deny(reason: "not for you")
        }
    }

    @Test(arguments: GatePath.allCases)
    func aListingReturnsOnlyTheKeysThatMayBeRead(_ path: GatePath) async throws {
        let base = SpyStore(contents)
        let proxy = AccessProxy(base, gatekeepers: [readingGate(path)])
        let keys = try await proxy.keys(under: "docs")
        #expect(keys == ["docs/2026/c.txt", "docs/a.txt"])
        #expect(base.calls == [.keys("docs")])
    }

    @Test(arguments: GatePath.allCases)
    func theObserverSeesTheListDecisionThenOneReadDecisionPerKey(_ path: GatePath) async throws {
        let observer = RecordingObserver()
        let proxy = AccessProxy(SpyStore(contents), gatekeepers: [readingGate(path)], observer: observer)
        _ = try await AccessContext.$current.withValue(AccessContext(subject: "bob")) {
            try await proxy.keys(under: "docs")
        }
        let asked = observer.records.map { "\($0.request.action) \($0.request.resource)" }
        #expect(
            asked == [
                "list docs", "read docs/2026/c.txt", "read docs/a.txt", "read docs/broken.txt",
                "read docs/private-b.txt",
            ])
        #expect(observer.records.allSatisfy { $0.request.subject == "bob" })
        let failed = observer.records.filter { $0.verdict.outcome == .failed }.map(\.request.resource)
        #expect(failed == ["docs/broken.txt"])
    }

    @Test(arguments: GatePath.allCases)
    func aDeniedOrFailedKeyAppearsInNoErrorEither(_ path: GatePath) async throws {
        // Every key is denied or fails: the result is empty, and no error is thrown.
        let proxy = AccessProxy(
            SpyStore(["docs/private-x": "x", "docs/broken.txt": "y"]), gatekeepers: [readingGate(path)])
        #expect(try await proxy.keys(under: "docs") == [])
    }

    @Test(arguments: GatePath.allCases)
    func aDeniedListingNeverReachesTheBase(_ path: GatePath) async throws {
        let base = SpyStore(contents)
        let gate = path.gate("rules") { request in
            request.action == "list" ? .deny(reason: "no listing") : .allow
        }
        let proxy = AccessProxy(base, gatekeepers: [gate])
        let denied = await #expect(throws: AccessDenied.self) { try await proxy.keys(under: "docs") }
        #expect(denied?.request.action == "list")
        #expect(denied?.request.resource == "docs")
        #expect(base.calls.isEmpty)
    }

    @Test(arguments: GatePath.allCases)
    func theRootIsListedAsTheEmptyFolderName(_ path: GatePath) async throws {
        let observer = RecordingObserver()
        let base = SpyStore(contents)
        let proxy = AccessProxy(base, gatekeepers: [readingGate(path)], observer: observer)
        let keys = try await proxy.keys(under: "")
        #expect(keys == ["docs/2026/c.txt", "docs/a.txt", "other/e.txt"])
        #expect(observer.records.first?.request.resource == "")
        #expect(observer.records.first?.verdict.decision == .allow)
    }

    @Test func aFolderNameThatBreaksTheIdentityRuleIsDeniedBeforeAnyGate() async throws {
        let base = SpyStore(contents)
        let gate = SwitchPolicy("gate", .allow)
        let proxy = AccessProxy(base, gatekeepers: [gate])
        for prefix in ["docs/", "/docs", "../docs", "docs/../other", "docs//x", ".", "do\u{0}cs"] {
            let denied = await #expect(throws: AccessDenied.self) { try await proxy.keys(under: prefix) }
            #expect(denied?.gatekeeper == "(identity)")
        }
        #expect(gate.evaluations == 0)
        #expect(base.calls.isEmpty)
    }

    @Test func aListedKeyThatBreaksTheIdentityRuleIsLeftOut() async throws {
        let base = SpyStore(["docs/cafe\u{301}.txt": "x", "docs/ok.txt": "y"])
        let proxy = AccessProxy(base, gatekeepers: [SwitchPolicy("allowAll")])
        #expect(try await proxy.keys(under: "docs") == ["docs/ok.txt"])
    }

    @Test func theReadChecksUseTheProxysLoadAction() async throws {
        let observer = RecordingObserver()
        let proxy = AccessProxy(
            SpyStore(["docs/a": "a"]), gatekeepers: [SwitchPolicy("allowAll")], action: "view",
            observer: observer)
        _ = try await proxy.keys(under: "docs")
        #expect(observer.records.map(\.request.action) == ["list", "view"])
    }

    @Test func aCancellationDuringTheReadChecksThrowsCancellationErrorNamingNoKey() async throws {
        let base = SpyStore(contents)
        let proxy = AccessProxy(
            base,
            gatekeepers: [
                ClosurePolicy("cancel") { request in
                    if request.action == "read" { withUnsafeCurrentTask { $0?.cancel() } }
                    return .allow
                }
            ])
        await #expect(throws: CancellationError.self) { try await proxy.keys(under: "docs") }
    }

    @Test func aRevokedReadHidesTheKeyFromTheNextListing() async throws {
        let gate = SwitchPolicy("switch", .allow)
        let proxy = AccessProxy(SpyStore(["docs/a": "a"]), gatekeepers: [gate])
        #expect(try await proxy.keys(under: "docs") == ["docs/a"])
        gate.set(.deny(reason: "revoked"))
        await #expect(throws: AccessDenied.self) { try await proxy.keys(under: "docs") }
    }
}
