import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A name a service takes from its resources is the resource's alone, through every door in code:
/// no value the caller claims under it reaches a gatekeeper, whether or not the resource has one,
/// for `AccessGate` (decide, authorize, permitted, plan), `AccessProxy` and `guarded` (load,
/// store, remove, the listed folder and each listed key, decide).
@Suite("A caller cannot claim a resource's attribute, through any door in code")
struct CallerClaimedResourceAttributeTests {
    /// Owners as a document store's metadata gives them: `docs/plan.md` is alice's, and no other
    /// document has an owner on record.
    static let owners = ResourceAttributes<String>(["owner"]) { key in
        ["docs/plan.md": ["owner": "alice"]][key] ?? [:]
    }

    /// What mallory claims: the owner, and a tenant, which is the caller's to give.
    static let claim = ["owner": "mallory", "tenant": "acme"]

    static func asMallory<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await AccessContext.with(subject: "mallory", attributes: claim, operation: body)
    }

    static func request(_ resource: String) -> AccessRequest {
        AccessRequest(subject: "mallory", action: .read, resource: resource, attributes: claim)
    }

    /// Whether the spy saw only what it should: never mallory's owner, always the caller's tenant.
    static func expectNoClaimedOwner(_ spy: AttributeSpy, tenant: Bool = true) {
        #expect(!spy.attributes.isEmpty)
        #expect(!spy.saw("owner", "mallory"), "\(spy.attributes)")
        #expect(spy.attributes.allSatisfy { ($0["tenant"] == "acme") == tenant }, "\(spy.attributes)")
    }

    @Test func theGateDropsTheClaimInDecideAuthorizeAndPermitted() async throws {
        let spy = AttributeSpy()
        let gate = AccessGate(gatekeepers: [spy], resourceAttributes: Self.owners)
        for resource in ["docs/budget.md", "docs/plan.md"] {
            _ = try await gate.decide(Self.request(resource))
            try await gate.authorize(Self.request(resource))
        }
        _ = try await gate.permitted([Self.request("docs/budget.md"), Self.request("docs/plan.md")])
        Self.expectNoClaimedOwner(spy)
        #expect(spy.saw("owner", "alice"))
    }

    @Test func theGatesPlanDropsTheClaim() async throws {
        let spy = AttributeSpy()
        let gate = AccessGate(gatekeepers: [spy], resourceAttributes: Self.owners)
        _ = try await gate.plan(subject: "mallory", action: .read, attributes: Self.claim)
        Self.expectNoClaimedOwner(spy)
    }

    @Test func aProxyDropsTheClaimOnLoadStoreRemoveDecideTheListedFolderAndEachKey() async throws {
        let spy = AttributeSpy()
        let store = SpyStore(["docs/budget.md": "B", "docs/plan.md": "P"])
        let documents = AccessProxy(store, gatekeepers: [spy], attributes: Self.owners)
        try await Self.asMallory {
            _ = try await documents.load("docs/budget.md")
            try await documents.store("B2", for: "docs/budget.md")
            try await documents.remove("docs/budget.md")
            _ = try await documents.decide("docs/plan.md")
            #expect(try await documents.keys(under: "docs") == ["docs/plan.md"])
        }
        // Load, store, remove, decide, the folder, its one key.
        #expect(spy.attributes.count == 6)
        Self.expectNoClaimedOwner(spy)
    }

    @Test func aProxysOwnGateDropsTheClaimInAPlanAndFailsADecisionItCannotReadFor() async throws {
        let spy = AttributeSpy()
        let documents = SpyStore(["docs/budget.md": "B"]).guarded(by: spy, attributes: Self.owners)
        _ = try await documents.gate.plan(subject: "mallory", action: .read, attributes: Self.claim)
        Self.expectNoClaimedOwner(spy)
        let verdict = try await documents.gate.decide(Self.request("docs/budget.md"))
        #expect(verdict.outcome == .failed)
        #expect(verdict.gatekeeper == "(attributes)")
        #expect(verdict.reason?.contains("read by key through its AccessProxy") == true)
        #expect(spy.attributes.count == 1)
    }

    @Test func aGuardedLoaderDropsTheClaimOnEveryCall() async throws {
        let spy = AttributeSpy()
        let documents = SpyStore(["docs/budget.md": "B"]).guarded(by: spy, attributes: Self.owners)
        try await Self.asMallory {
            _ = try await documents.load("docs/budget.md")
            try await documents.store("B2", for: "docs/budget.md")
            #expect(try await documents.keys(under: "docs") == ["docs/budget.md"])
            try await documents.remove("docs/budget.md")
        }
        Self.expectNoClaimedOwner(spy)
    }

    @Test func withUndeclaredNamesNoAttributeOfTheCallerReachesAGatekeeper() async throws {
        let spy = AttributeSpy()
        let documents = SpyStore(["docs/budget.md": "B"]).guarded(by: spy) { _ in [:] }
        try await Self.asMallory {
            _ = try await documents.load("docs/budget.md")
            _ = try await documents.keys(under: "docs")
        }
        Self.expectNoClaimedOwner(spy, tenant: false)
        #expect(spy.attributes.allSatisfy { $0.isEmpty })
    }

    /// The issue's attack, in code: mallory claims to own a document no owner is on record for.
    @Test func aClaimedOwnerOfADocumentWithoutOneNeitherReadsNorWritesIt() async throws {
        let store = SpyStore(["docs/budget.md": "B"])
        let ownerOnly = ClosurePolicy("owner") { request in
            request.attributes["owner"] == request.subject ? .allow : .deny(reason: "not the owner")
        }
        let documents = AccessProxy(store, gatekeepers: [ownerOnly], attributes: Self.owners)
        await Self.asMallory {
            await #expect(throws: AccessDenied.self) { try await documents.load("docs/budget.md") }
            await #expect(throws: AccessDenied.self) {
                try await documents.store("mine", for: "docs/budget.md")
            }
            await #expect(throws: AccessDenied.self) { try await documents.remove("docs/budget.md") }
        }
        #expect(store.calls.isEmpty)
    }

    @Test func theDecidedRequestMarksEachValuesOriginAndTheDenialShowsNoValue() async throws {
        let ownerOnly = ClosurePolicy("owner") { request in
            request.attributes["owner"] == request.subject ? .allow : .deny(reason: "not the owner")
        }
        let observer = RecordingObserver()
        let gate = AccessGate(gatekeepers: [ownerOnly], observer: observer, resourceAttributes: Self.owners)
        let denial = await #expect(throws: AccessDenied.self) {
            try await gate.authorize(Self.request("docs/plan.md"))
        }
        let decided = try #require(observer.records.first?.request)
        #expect(
            decided.description
                == #"mallory read "docs/plan.md" [owner=alice (resource), tenant=acme (caller)]"#)
        #expect(denial?.request == decided)
        let text = try #require(denial?.description)
        #expect(
            !text.contains("alice") && !text.contains("acme") && !text.contains("mallory\u{20}("), "\(text)")
        #expect(text.hasSuffix(#"(mallory read "docs/plan.md" [attributes: owner, tenant])"#), "\(text)")
    }
}
