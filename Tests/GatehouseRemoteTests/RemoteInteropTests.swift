import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseRemote
import Testing

/// RemotePolicy against a real Rego engine: Tests/Interop/opa_data_server.py serves OPA's data
/// API with regopy evaluating Tests/Interop/gatehouse.rego, and every decision must equal the
/// one FilePolicy makes on Tests/Interop/gatehouse.rules, the same rules in Gatehouse's format.
/// Skipped (never passed) when no Python with regopy is found.
@Suite(
    "RemotePolicy against a real Rego engine (regopy)",
    .enabled(if: RegoInterpreter.isAvailable, Comment(rawValue: RegoInterpreter.howToEnable)))
struct RemoteInteropTests {
    /// A request and whether the rules allow it.
    struct Case: Sendable, CustomTestStringConvertible {
        var request: AccessRequest
        var allowed: Bool
        var testDescription: String { "\(request) → \(allowed ? "allow" : "deny")" }

        init(
            _ subject: String?, _ action: String, _ resource: String, _ attributes: [String: String],
            _ allowed: Bool
        ) {
            request = AccessRequest(
                subject: subject, action: AccessAction(rawValue: action), resource: resource,
                attributes: attributes)
            self.allowed = allowed
        }

        init(_ subject: String?, _ action: String, _ resource: String, _ allowed: Bool) {
            self.init(subject, action, resource, [:], allowed)
        }
    }

    static let cases: [Case] = [
        Case("dana", "read", "docs/plan.md", true),  // an owner is a viewer, through two groups
        Case("gina", "read", "docs/plan.md", true),
        Case("gina", "write", "docs/plan.md", false),  // a viewer, not an editor
        Case("erin", "write", "docs/plan.md", true),
        Case("dana", "write", "docs/", true),  // `*` matches the empty run
        Case("zoe", "write", "docs/plan.md", ["owner": "zoe"], true),  // if owner={subject}
        Case("zoe", "write", "docs/plan.md", ["owner": "erin"], false),
        Case("zoe", "read", "docs/plan.md", false),
        Case("erin", "read", "docs/q3/private-notes.md", false),  // deny docs/*/private-* wins
        Case("erin", "read", "docs/private-notes.md", true),  // not docs/*/private-*: no second `/`
        Case("zoe", "read", "users/zoe/a.txt", true),  // users/{subject}/*
        Case("zoe", "delete", "users/zoe/old.txt", true),  // any action
        Case("zoe", "read", "users/erin/a.txt", false),
        Case(nil, "read", "users/zoe/a.txt", false),  // no subject: the placeholder has no value
        Case(nil, "read", "public/logo.png", true),  // subject `*` matches no subject
        Case(nil, "write", "public/logo.png", false),
        Case("gina", "read", "tenants/acme/plan.txt", ["tenant": "acme"], true),
        Case("gina", "read", "tenants/acme/plan.txt", false),  // no tenant attribute
        Case("gina", "read", "tenants/acme/team/a.txt", ["tenant": "acme/team"], false),  // `/` in a value
        Case("zoe", "read", "tenants/acme/plan.txt", ["tenant": "acme"], false),  // not a viewer
        Case("dana", "read", "exports/q3.csv", ["device": "managed"], true),
        Case("dana", "read", "exports/q3.csv", ["device": "unmanaged"], false),  // the deny wins
        Case("dana", "read", "exports/q3.csv", true),  // no device attribute: the deny does not hold
        Case("erin", "read", "exports/q3.csv", ["device": "managed"], false),  // not an owner
    ]

    @Test func opaServedByRegoDecidesAsFilePolicyOnTheSameRules() async throws {
        let server = try RegoDataServer(policies: ["Tests/Interop/gatehouse.rego"])
        defer { server.stop() }
        let remote = try RemotePolicy(url: server.url("gatehouse"), protocol: .opa, timeout: .seconds(30))
        let file = FilePolicy(
            url: RegoInterpreter.packageRoot.appendingPathComponent("Tests/Interop/gatehouse.rules"))
        for testCase in Self.cases {
            let byRego = try await remote.evaluate(testCase.request)
            let byRules = try await file.evaluate(testCase.request)
            #expect(
                byRego.isAllowed == byRules.isAllowed,
                "\(testCase.testDescription): Rego \(byRego), rules \(byRules)")
            #expect(byRego.isAllowed == testCase.allowed, "\(testCase.testDescription): Rego \(byRego)")
        }
    }

    @Test func aDenialCarriesTheReasonTheRegoPolicyGives() async throws {
        let server = try RegoDataServer(policies: ["Tests/Interop/gatehouse.rego"])
        defer { server.stop() }
        let remote = try RemotePolicy(url: server.url("gatehouse"), protocol: .opa, timeout: .seconds(30))
        let request = AccessRequest(subject: "erin", resource: "docs/q3/private-notes.md")
        #expect(try await remote.evaluate(request) == .deny(reason: "a deny rule matches"))
    }

    @Test func aDocumentTheEngineDoesNotDefineDenies() async throws {
        let server = try RegoDataServer(policies: ["Tests/Interop/gatehouse.rego"])
        defer { server.stop() }
        let remote = try RemotePolicy(
            url: server.url("gatehouse/nothing"), protocol: .opa, timeout: .seconds(30))
        let decision = try await remote.evaluate(AccessRequest(subject: "dana", resource: "docs/plan.md"))
        #expect(decision.isAllowed == false)
        #expect(decision.reason?.contains("is undefined") == true)
    }
}

/// In CI (`GATEHOUSE_REQUIRE_INTEROP=1`, set by .ci/run after it installs regopy) the interop
/// tests must run: an interpreter that cannot be found fails here instead of skipping them.
@Test(.enabled(if: RegoInterpreter.isRequired, "runs when GATEHOUSE_REQUIRE_INTEROP=1"))
func theInteropTestsRunWhereTheyAreRequired() {
    #expect(RegoInterpreter.isAvailable, "GATEHOUSE_REQUIRE_INTEROP=1 but \(RegoInterpreter.howToEnable)")
}
