import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// `RulesPolicy(text:name:)`: rules held in memory, decided like a rules file, with the policy's
/// name where a file name would be.
@Suite("RulesPolicy")
struct RulesPolicyTests {
    static let rules = """
        # effect  subject  action  resource
        allow     alice    read    avatars/alice/*
        allow     *        read    public/*
        deny      *        *       avatars/*/private-*
        """

    @Test func decidesByTheRulesAndNamesItselfAndTheDecidingLine() async throws {
        let policy = try RulesPolicy(text: Self.rules, name: "avatars")
        #expect(policy.name == "avatars")
        #expect(policy.ruleCount == 3)
        #expect(
            try await policy.evaluate(AccessRequest(subject: "alice", resource: "avatars/alice/a.png"))
                == .allow)
        #expect(try await policy.evaluate(AccessRequest(resource: "public/x")) == .allow)
        #expect(
            try await policy.evaluate(AccessRequest(subject: "alice", resource: "avatars/alice/private-a"))
                == .deny(reason: "avatars:4 denies"))
        #expect(
            try await policy.evaluate(AccessRequest(subject: "bob", resource: "avatars/alice/a.png"))
                == .deny(reason: "no rule in avatars allows"))
    }

    @Test func withoutANameTheRulesAreNamedAfterTheSourceLineThatMadeThem() async throws {
        let line = #line + 1
        let policy = try RulesPolicy(text: "deny * read x\n")
        let name = "RulesPolicyTests.swift:\(line)"
        #expect(policy.name == name)
        #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .deny(reason: "\(name):1 denies"))
        #expect(
            try await policy.evaluate(AccessRequest(resource: "y"))
                == .deny(reason: "no rule in \(name) allows"))
        let denied = await #expect(throws: AccessDenied.self) {
            try await AccessGate(gatekeepers: [policy]).authorize(AccessRequest(resource: "y"))
        }
        #expect(denied?.description.hasPrefix("access denied by \(name): no rule in \(name) allows") == true)
    }

    @Test func theActionCounts() async throws {
        let policy = try RulesPolicy(text: "allow * read docs/*\nallow bob write docs/*\n", name: "docs")
        #expect(
            try await policy.evaluate(AccessRequest(subject: "bob", action: "write", resource: "docs/a"))
                == .allow)
        #expect(
            try await policy.evaluate(AccessRequest(subject: "alice", action: "write", resource: "docs/a"))
                == .deny(reason: "no rule in docs allows"))
    }

    @Test func aMalformedTextThrowsAnErrorNamingThePolicyAndTheLine() {
        #expect {
            try RulesPolicy(text: "allow * read x\n# note\nallow * read\n", name: "documents")
        } throws: { error in
            guard let error = error as? RulesFileError else { return false }
            return error.file == "documents" && error.line == 3 && error.kind == .malformed
                && error.errorDescription == "documents:3: \(error.message)"
        }
    }

    @Test func aForbiddenCharacterThrowsAnErrorNamingThePolicyAndTheLine() {
        #expect {
            try RulesPolicy(text: "allow * read x\ndeny mallory\u{00A0}read keys/*\n", name: "documents")
        } throws: { error in
            guard let error = error as? RulesFileError else { return false }
            return error.file == "documents" && error.line == 2 && error.kind == .malformed
                && error.message.hasPrefix("column 13 holds U+00A0")
        }
    }

    @Test func anEmptyTextIsIncompleteLikeAnEmptyFile() {
        #expect {
            try RulesPolicy(text: "", name: "documents")
        } throws: { error in
            (error as? RulesFileError)?.kind == .incomplete && (error as? RulesFileError)?.file == "documents"
        }
        #expect(throws: Never.self) { try RulesPolicy(text: "# nothing is allowed yet\n", name: "documents") }
    }

    @Test func aDeniedProxyCallNamesThePolicyAndTheLine() async throws {
        let avatars = FilePolicyTests.TextLoader().guarded(
            by: try RulesPolicy(text: Self.rules, name: "avatars"))
        try await AccessContext.$current.withValue(AccessContext(subject: "alice")) { () async throws in
            #expect(try await avatars.load("avatars/alice/a.png") == "contents of avatars/alice/a.png")
            let denied = await #expect(throws: AccessDenied.self) {
                try await avatars.load("avatars/alice/private-a")
            }
            #expect(denied?.gatekeeper == "avatars")
            #expect(denied?.reason == "avatars:4 denies")
            #expect(denied?.isFailure == false)
        }
    }

    @Test func decidesLikeAFilePolicyOnTheSameRules() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("same")
            try replaceAtomically(url, with: Self.rules)
            let file = FilePolicy(url: url)
            let memory = try RulesPolicy(text: Self.rules, name: "same")
            var random = SplitMix64(seed: 0x5a3e)
            for _ in 0..<200 {
                let request = AccessRequest(
                    subject: Bool.random(using: &random)
                        ? nil : random.string(from: "ab", maxLength: 5).nonEmpty,
                    action: ["read", "write"].randomElement(using: &random)!,
                    resource: ["avatars/", "public/", "x/"].randomElement(using: &random)!
                        + random.string(from: "alice/private-", maxLength: 14))
                #expect(try await memory.evaluate(request) == file.evaluate(request), "\(request)")
            }
        }
    }
}
