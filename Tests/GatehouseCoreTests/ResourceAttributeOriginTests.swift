import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A name the service takes from its resources is the resource's alone: the caller's value for
/// it never reaches a gatekeeper, through the proxy, the gate, a listing or a plan.
@Suite("Resource attribute origins")
struct ResourceAttributeOriginTests {
    /// Owners on record: `docs/a` is alice's, `docs/b` has no owner.
    static let owners = ResourceAttributes<String>(["owner"]) { key in
        key == "docs/a" ? ["owner": "alice"] : [:]
    }

    /// Allows the owner, and any action but `list` only on `tenants/{tenant}/...` for the tenant.
    static let rules = ClosurePolicy("owner") { request in
        if request.action == .list {
            return request.attributes["owner"] == nil ? .allow : .deny(reason: "owned")
        }
        if request.resource.hasPrefix("tenants/") {
            return request.attributes["tenant"] == "acme" ? .allow : .deny(reason: "another tenant")
        }
        return request.attributes["owner"] == request.subject ? .allow : .deny(reason: "not the owner")
    }

    @Test func aCallerCannotClaimADeclaredNameTheResourceLacks() async throws {
        let store = SpyStore(["docs/b": "B"])
        let docs = store.guarded(by: Self.rules, attributes: Self.owners)
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "mallory", attributes: ["owner": "mallory"]) {
                try await docs.load("docs/b")
            }
        }
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "mallory", attributes: ["owner": "mallory"]) {
                try await docs.store("mine", for: "docs/b")
            }
        }
        #expect(store.calls.isEmpty)
    }

    @Test func theCallersOtherAttributesStillReachTheGatekeepers() async throws {
        let docs = SpyStore(["tenants/acme/plan": "P"]).guarded(by: Self.rules, attributes: Self.owners)
        let plan = try await AccessContext.with(subject: "gina", attributes: ["tenant": "acme"]) {
            try await docs.load("tenants/acme/plan")
        }
        #expect(plan == "P")
    }

    @Test func anUndeclaredSourceTakesEveryNameFromTheResource() async throws {
        let docs = SpyStore(["tenants/acme/plan": "P"]).guarded(by: Self.rules, attributes: { _ in [:] })
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "gina", attributes: ["tenant": "acme"]) {
                try await docs.load("tenants/acme/plan")
            }
        }
    }

    @Test func aSourceAnsweringAnUndeclaredNameFailsTheGate() async throws {
        let stray = ResourceAttributes<String>(["owner"]) { _ in ["tenant": "acme"] }
        let docs = SpyStore(["docs/a": "A"]).guarded(by: SwitchPolicy("all"), attributes: stray)
        let denied = await #expect(throws: AccessDenied.self) { try await docs.load("docs/a") }
        #expect(denied?.isFailure == true)
        #expect(denied?.gatekeeper == "(attributes)")
        #expect(denied?.reason.contains("tenant, which is not among the names") == true)
    }

    @Test func theGatesOwnSourceGuardsDecideAuthorizePermittedAndPlan() async throws {
        let gate = AccessGate(gatekeepers: [Self.rules], resourceAttributes: Self.owners)
        let claim = AccessRequest(
            subject: "mallory", action: .read, resource: "docs/b", attributes: ["owner": "mallory"])
        let verdict = try await gate.decide(claim)
        #expect(!verdict.isAllowed)
        await #expect(throws: AccessDenied.self) { try await gate.authorize(claim) }
        #expect(try await gate.permitted([claim]).isEmpty)
        let owned = AccessRequest(subject: "alice", action: .read, resource: "docs/a")
        #expect(try await gate.decide(owned).isAllowed)
        let plan = try await gate.plan(subject: "mallory", action: .read, attributes: ["owner": "mallory"])
        #expect(!plan.permits("docs/b"))
    }

    @Test func aListingsFolderRequestTakesNoDeclaredNameFromTheCaller() async throws {
        let store = SpyStore(["docs/a": "A"])
        let docs = store.guarded(by: Self.rules, attributes: Self.owners)
        // The rules allow a listing only without an owner: the caller's claim must not reach them.
        let listed = try await AccessContext.with(subject: "bob", attributes: ["owner": "bob"]) {
            try await docs.keys(under: "docs")
        }
        #expect(listed.isEmpty)  // docs/a is alice's
        #expect(store.calls == [.keys("docs")])
    }

    @Test func theRequestShowsWhoseEachValueIsAndTheDenialShowsNone() async throws {
        let observer = RecordingObserver()
        let docs = SpyStore(["docs/a": "A"]).guarded(
            by: Self.rules, observer: observer, attributes: Self.owners)
        let denied = await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "bob", attributes: ["device": "laptop-7"]) {
                try await docs.load("docs/a")
            }
        }
        let seen = try #require(observer.records.first?.request)
        #expect(seen.description == #"bob read "docs/a" [device=laptop-7 (caller), owner=alice (resource)]"#)
        #expect(seen.resourceAttributeNames.contains("owner"))
        #expect(denied?.description.contains("laptop-7") == false)
        #expect(denied?.description.contains("alice") == false)
    }
}
