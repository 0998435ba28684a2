import GatehouseCore
import GatehousePolicies
import Testing

/// The diff of two versions on designed edits: the plain forms that change nothing (a duplicate,
/// an allow inside a wider allow, an allow under a wider deny, a rule a placeholder already
/// grants) are found to change nothing, and a real change is given exactly, with its rules and
/// an example.
@Suite("Rules diff")
struct RulesDiffTests {
    static func diff(_ old: String, _ new: String) throws -> RulesDiff {
        RulesDiff(
            old: try RulesPolicy(text: old, name: "old.rules"),
            new: try RulesPolicy(text: new, name: "new.rules"))
    }

    @Test func aDuplicateRuleChangesNoDecision() throws {
        let diff = try Self.diff(
            "allow alice read docs/*\n", "allow alice read docs/*\nallow alice read docs/*\n")
        #expect(diff.changes().isEmpty)
    }

    @Test func anAllowInsideAWiderAllowWithTheSameConditionsChangesNoDecision() throws {
        let diff = try Self.diff(
            "allow alice read docs/* if tenant=acme\n",
            "allow alice read docs/* if tenant=acme\nallow alice read docs/a/* if tenant=acme\n")
        #expect(diff.changes().isEmpty)
        #expect(diff.changes(attributes: ["tenant": "acme"]).isEmpty)
    }

    @Test func anAllowUnderAWiderDenyChangesNoDecision() throws {
        let diff = try Self.diff(
            "allow * read docs/*\ndeny * * secret/*\n",
            "allow * read docs/*\ndeny * * secret/*\nallow bob read secret/x\n")
        #expect(diff.changes().isEmpty)
    }

    @Test func aRuleThatAPlaceholderAlreadyGrantsToALiteralSubjectChangesNothingForIt() throws {
        let diff = try Self.diff(
            "allow * read {subject}/*\n", "allow * read {subject}/*\nallow * read secrets/*\n")
        // The subject `secrets` already reads secrets/* through its placeholder.
        #expect(diff.change(subject: "secrets", action: .read) == nil)
        let alice = try #require(diff.change(subject: "alice", action: .read))
        #expect(alice.gained == .matching("secrets/*"))
        #expect(alice.lost == .nothing)
        #expect(alice.before.isEmpty)
        #expect(alice.after.map(\.description) == ["new.rules:2"])
        #expect(alice.example.resource == "secrets/c")
        #expect(!alice.exampleWasAllowed)
    }

    @Test func aNarrowedAllowLosesExactlyWhatItNoLongerCovers() throws {
        let diff = try Self.diff(
            "group editors alice bob\nallow @editors write docs/*\n",
            "group editors alice bob\nallow @editors write docs/*\ndeny bob write docs/secret/*\n")
        let changes = diff.changes()
        #expect(changes.count == 1)
        let bob = try #require(changes.first)
        #expect(bob.subject == "bob")
        #expect(bob.action == "write")
        #expect(bob.gained == .nothing)
        #expect(bob.lost == .matching("docs/secret/*"))
        #expect(bob.before.map(\.description) == ["old.rules:2"])
        #expect(bob.after.map(\.description) == ["new.rules:2", "new.rules:3"])
        #expect(bob.example.resource == "docs/secret/c")
        #expect(bob.exampleWasAllowed)
    }

    @Test func anyOtherSubjectAndActionAreClassesOfTheirOwn() throws {
        let diff = try Self.diff("allow alice read docs/*\n", "allow alice read docs/*\nallow * * public/*\n")
        let changes = diff.changes()
        // alice (read, and any other action), no subject, any other subject: each gains public/*.
        #expect(changes.count == 6)
        #expect(changes.allSatisfy { $0.gained == .matching("public/*") && $0.lost == .nothing })
        #expect(changes.contains { $0.subject == nil && !$0.withoutSubject && $0.action == nil })
        #expect(changes.contains { $0.withoutSubject && $0.action == "read" })
    }

    @Test func aConditionChangesDecisionsOnlyForTheAttributesItAsks() throws {
        let diff = try Self.diff(
            "allow * read docs/*\n", "allow * read docs/*\ndeny * read docs/* if device=unmanaged\n")
        #expect(diff.change(subject: "alice", action: .read, attributes: ["device": "managed"]) == nil)
        let unmanaged = try #require(
            diff.change(subject: "alice", action: .read, attributes: ["device": "unmanaged"]))
        #expect(unmanaged.lost == .matching("docs/*"))
    }

    @Test func aDenyOverAWiderAllowLosesTheDifferenceOnly() throws {
        let diff = try Self.diff("allow * read a*\n", "allow * read a*\ndeny * read ab*\nallow * read abc\n")
        let change = try #require(diff.change(subject: "carol", action: .read))
        #expect(change.lost == .matching("ab*"))
        #expect(change.gained == .nothing)
    }

    @Test func aConditionIsTriedWithTheValuesItNamesWhenNoAttributeIsGiven() throws {
        let diff = try Self.diff(
            "allow * read docs/*\n", "allow * read docs/*\ndeny * read docs/* if device=unmanaged\n")
        let changes = diff.changes(subject: "alice", action: .read)
        #expect(changes.map(\.attributes) == [["device": "unmanaged"]])
        #expect(diff.attributeClasses(given: [:]) == [[:], ["device": "unmanaged"]])
    }

    @Test func aPlaceholderIsTriedWithAValueNoRuleNames() throws {
        let diff = try Self.diff("allow * read tenants/acme/*\n", "allow * read tenants/{tenant}/*\n")
        let changes = diff.changes(subject: "alice", action: .read)
        // Absent: acme's folder is lost; another tenant gains its own folder and loses acme's.
        #expect(changes.map(\.attributes) == [[:], ["tenant": "other"]])
        #expect(changes.first?.lost == .matching("tenants/acme/*"))
        #expect(changes.last?.gained == .matching("tenants/other/*"))
    }
}
