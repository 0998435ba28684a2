import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

@Suite("AllowList")
struct AllowListTests {
    static let table:
        [(resources: [String]?, subjects: [String]?, request: AccessRequest, decision: AccessDecision)] = [
            (["avatars/*"], nil, AccessRequest(resource: "avatars/alice.png"), .allow),
            (["avatars/*"], nil, AccessRequest(subject: "bob", resource: "avatars/"), .allow),
            (
                ["avatars/*"], nil, AccessRequest(subject: "bob", resource: "secrets/key"),
                .deny(reason: "resource \"secrets/key\" is not in the allow-list")
            ),
            (nil, ["alice", "bob"], AccessRequest(subject: "bob", resource: "anything"), .allow),
            (
                nil, ["alice", "bob"], AccessRequest(subject: "carol", resource: "anything"),
                .deny(reason: "subject \"carol\" is not in the allow-list")
            ),
            (
                nil, ["alice", "ops-*"], AccessRequest(resource: "anything"),
                .deny(
                    reason:
                        "the request has no subject (anonymous), and only the subject pattern \"*\" admits it"
                )
            ),
            (nil, ["*"], AccessRequest(resource: "anything"), .allow),
            (nil, ["ops-*"], AccessRequest(subject: "ops-eve", resource: "x"), .allow),
            (["avatars/*"], ["alice"], AccessRequest(subject: "alice", resource: "avatars/a"), .allow),
            (
                ["avatars/*"], ["alice"], AccessRequest(subject: "alice", resource: "docs/a"),
                .deny(reason: "resource \"docs/a\" is not in the allow-list")
            ),
            (
                ["avatars/*"], ["alice"], AccessRequest(subject: "bob", resource: "avatars/a"),
                .deny(reason: "subject \"bob\" is not in the allow-list")
            ),
            (
                ["avatars/*"], ["alice"], AccessRequest(subject: "bob", resource: "docs/a"),
                .deny(
                    reason:
                        "resource \"docs/a\" is not in the allow-list; subject \"bob\" is not in the allow-list"
                )
            ),
            (["avatars/*/private-*"], nil, AccessRequest(resource: "avatars/bob/private-1"), .allow),
            (
                ["a"], nil, AccessRequest(resource: "A"),
                .deny(reason: "resource \"A\" is not in the allow-list")
            ),
        ]

    @Test(arguments: table)
    func decidesAsTheTableSays(
        resources: [String]?, subjects: [String]?, request: AccessRequest, decision: AccessDecision
    ) async throws {
        let policy = try AllowList(resources: resources, subjects: subjects)
        #expect(try await policy.evaluate(request) == decision)
    }

    @Test func actionAndAttributesDoNotMatter() async throws {
        let policy = try AllowList(resources: ["a"], subjects: ["alice"])
        let request = AccessRequest(subject: "alice", action: "delete", resource: "a", attributes: ["k": "v"])
        #expect(try await policy.evaluate(request) == .allow)
    }

    @Test func neitherListIsAConfigurationError() {
        #expect(
            throws: PolicyConfigurationError(
                policy: "avatarGate",
                message: "give resources, subjects or both; an allow-list with neither has nothing to check")
        ) {
            try AllowList(name: "avatarGate")
        }
    }

    @Test func anEmptyListIsAConfigurationErrorBecauseItWouldDenyEverything() {
        #expect(throws: PolicyConfigurationError.self) { try AllowList(resources: []) }
        #expect(throws: PolicyConfigurationError.self) { try AllowList(resources: ["a"], subjects: []) }
        do {
            _ = try AllowList(subjects: [])
            Issue.record("an empty subjects list was accepted")
        } catch {
            #expect(
                error.localizedDescription
                    == "allowList: subjects is empty, so every request would be denied; leave subjects out "
                    + "to not check it, or use AlwaysDeny to close the gate")
        }
    }

    @Test func nameDefaultsToAllowList() throws {
        #expect(try AllowList(resources: ["a"]).name == "allowList")
        #expect(try AllowList(resources: ["a"], name: "avatars").name == "avatars")
    }

    @Test func agreesWithABruteForceScanOnRandomListsAndRequests() async throws {
        var random = SplitMix64(seed: 0xa110_0415)
        var outcomes: [Bool: Int] = [:]
        for _ in 0..<60 {
            let resources: [String]? =
                Bool.random(using: &random)
                ? (0..<Int.random(in: 1...40, using: &random)).map { _ in
                    random.string(from: "ab/*", maxLength: 5)
                }
                : nil
            let subjects: [String]? =
                resources == nil || Bool.random(using: &random)
                ? (0..<Int.random(in: 1...10, using: &random)).map { _ in
                    random.string(from: "ab*", maxLength: 3)
                }
                : nil
            let policy = try AllowList(resources: resources, subjects: subjects)
            for _ in 0..<50 {
                let subject: String? =
                    Int.random(in: 0..<5, using: &random) == 0 ? nil : random.string(from: "ab", maxLength: 3)
                let request = AccessRequest(
                    subject: subject, resource: random.string(from: "ab/", maxLength: 6))
                let resourceOK =
                    resources.map { $0.contains { referenceGlobMatch($0, request.resource) } } ?? true
                let subjectOK =
                    subjects.map { list in
                        subject.map { name in list.contains { referenceGlobMatch($0, name) } }
                            ?? list.contains("*")
                    } ?? true
                let decision = try await policy.evaluate(request)
                #expect(decision.isAllowed == (resourceOK && subjectOK), "\(request)")
                outcomes[decision.isAllowed, default: 0] += 1
            }
        }
        // The generator must exercise both outcomes, or the comparison proves little.
        #expect(outcomes[true, default: 0] > 300 && outcomes[false, default: 0] > 300)
    }
}
