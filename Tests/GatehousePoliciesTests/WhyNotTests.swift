import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// "Why is erin denied?": a rules denial explained by the nearest rules and what failed for
/// each, in the verdict only; the short reason stays short.
@Suite("Why not: near misses of a rules denial")
struct WhyNotTests {
    static let rules = """
        group  editors  alice bob
        allow  @editors write   docs/*
        allow  *        read    docs/*             if device=managed
        allow  *        read    tenants/{tenant}/*
        allow  erin     read    private/erin/*
        allow  *        delete  docs/*
        deny   *        *       docs/secret/*
        """

    static func verdict(
        _ subject: String?, _ action: AccessAction, _ resource: String, _ attributes: [String: String] = [:],
        mask: Set<String> = []
    ) async throws -> AccessVerdict {
        let policy = try RulesPolicy(text: rules, name: "documents.rules")
        let request = AccessRequest(
            subject: subject, action: action, resource: resource, attributes: attributes)
        return try await AccessGate(gatekeepers: [policy], mask: mask).decide(request)
    }

    @Test func erinIsNotAMemberOfEditors() async throws {
        let verdict = try await Self.verdict("erin", "write", "docs/a", ["device": "unmanaged"])
        #expect(verdict.reason == "no rule in documents.rules allows")
        #expect(verdict.nearMisses == ["documents.rules:2: erin is not a member of @editors"])
    }

    @Test func erinsDeviceIsUnmanagedOrMissing() async throws {
        let unmanaged = try await Self.verdict("erin", "read", "docs/a", ["device": "unmanaged"])
        #expect(
            unmanaged.nearMisses == [
                "documents.rules:3: the condition device=managed is not met (device is unmanaged)",
                "documents.rules:5: the resource does not match private/erin/*",
            ])
        let missing = try await Self.verdict("erin", "read", "docs/a")
        #expect(
            missing.nearMisses.first
                == "documents.rules:3: the condition device=managed is not met (device is missing)")
    }

    @Test func erinHasNoTenantAndHerOwnRuleNamesAnotherFolder() async throws {
        let verdict = try await Self.verdict("erin", "read", "tenants/acme/a")
        #expect(
            verdict.nearMisses == [
                "documents.rules:4: the placeholder {tenant} has no value",
                "documents.rules:5: the resource does not match private/erin/*",
            ])
    }

    @Test func aDenyRuleNamesTheAllowItOverrides() async throws {
        let verdict = try await Self.verdict("alice", "write", "docs/secret/a")
        #expect(verdict.reason == "documents.rules:7 denies")
        #expect(verdict.nearMisses == ["documents.rules:2: allows, but documents.rules:7 denies"])
    }

    @Test func anAllowedRequestCarriesNoNearMisses() async throws {
        let verdict = try await Self.verdict("alice", "write", "docs/a")
        #expect(verdict.isAllowed)
        #expect(verdict.nearMisses.isEmpty)
        let policy = try RulesPolicy(text: Self.rules, name: "documents.rules")
        #expect(
            try await policy.nearMisses(AccessRequest(subject: "alice", action: "write", resource: "docs/a"))
                .isEmpty)
    }

    @Test func maskedValuesNeverAppear() async throws {
        let verdict = try await Self.verdict(
            "erin", "read", "docs/a", ["device": "laptop-99"], mask: ["device"])
        #expect(verdict.nearMisses.count == 2)
        #expect(verdict.nearMisses.allSatisfy { !$0.contains("laptop-99") }, "\(verdict.nearMisses)")
        #expect(verdict.nearMisses.first?.contains("(device is (masked))") == true)
    }

    @Test func theListIsCappedAtFiveInLineOrder() async throws {
        let text = (1...8).map { "allow  @team  read  docs/*  if level=\($0)" }.joined(separator: "\n")
        let policy = try RulesPolicy(text: "group team zoe\n" + text, name: "r")
        let misses = try await policy.nearMisses(
            AccessRequest(subject: "erin", action: "read", resource: "docs/a"))
        #expect(misses.count == 5)
        #expect(misses.first?.hasPrefix("r:2: erin is not a member of @team; the condition level=1") == true)
        #expect(misses.last?.hasPrefix("r:6: ") == true)
    }

    @Test func thePlainDecisionNeverCarriesThem() async throws {
        let policy = try RulesPolicy(text: Self.rules, name: "documents.rules")
        let request = AccessRequest(subject: "erin", action: "write", resource: "docs/a")
        #expect(try await policy.evaluate(request) == .deny(reason: "no rule in documents.rules allows"))
        let explanation = try await policy.explain(request)
        #expect(explanation.note == nil)
        let denied = await #expect(throws: AccessDenied.self) {
            try await AccessGate(gatekeepers: [policy]).authorize(request)
        }
        #expect(denied?.description.contains("editors") == false)
    }

    @Test func aFilePolicyGivesThemToo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let url = try folder.write("whynot.rules", Self.rules)
        let gate = AccessGate(gatekeepers: [FilePolicy(url: url, name: "documents")])
        let verdict = try await gate.decide(
            AccessRequest(subject: "erin", action: "write", resource: "docs/a"))
        #expect(verdict.nearMisses == ["\(url.lastPathComponent):2: erin is not a member of @editors"])
    }
}
