import GatehouseCore
import GatehousePolicies
import Testing

/// A condition value that starts with a combining mark: `=` and the mark make one `Character`,
/// so a split by characters took the mark with the `=` and dropped it from the value. The rule
/// `deny * read * if tag=\u{301}x` then matched `tag=x`, and not the value it names.
@Suite("Conditions whose value starts with a combining mark")
struct CombiningMarkConditionTests {
    @Test func aConditionValueKeepsTheCombiningMarkAfterItsEqualsSign() async throws {
        let policy = try RulesPolicy(text: "allow * read *\ndeny * read * if tag=\u{301}x\n", name: "rules")
        let written = AccessRequest(subject: "alice", resource: "a", attributes: ["tag": "\u{301}x"])
        let other = AccessRequest(subject: "alice", resource: "a", attributes: ["tag": "x"])
        #expect(try await policy.evaluate(written) == .deny(reason: "rules:2 denies"))
        #expect(try await policy.evaluate(other) == .allow)
    }

    @Test func aConditionWhoseValueIsOnlyACombiningMarkIsAValue() async throws {
        let policy = try RulesPolicy(text: "allow * read *\ndeny * read * if tag=\u{300}\n", name: "rules")
        let request = AccessRequest(subject: "alice", resource: "a", attributes: ["tag": "\u{340}"])
        #expect(try await policy.evaluate(request) == .deny(reason: "rules:2 denies"))
    }
}
