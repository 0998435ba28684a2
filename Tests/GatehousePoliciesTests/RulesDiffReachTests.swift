import GatehouseCore
import GatehousePolicies
import Testing

/// The diff folds only the classes a differing rule or a change of groups can reach, and still
/// finds every change: rules that only move change nothing; a change of group membership alone,
/// direct or nested, changes the decisions of the subject it moves.
@Suite("Rules diff reach")
struct RulesDiffReachTests {
    static func diff(_ old: String, _ new: String) throws -> RulesDiff {
        RulesDiff(
            old: try RulesPolicy(text: old, name: "old.rules"),
            new: try RulesPolicy(text: new, name: "new.rules"))
    }

    @Test func rulesThatOnlyMoveOrChangeTheirConditionsOrderChangeNoDecision() throws {
        let diff = try Self.diff(
            "allow alice read docs/* if tenant=acme device=mac\ndeny * * docs/secret/*\n",
            "deny * * docs/secret/*\n\nallow alice read docs/* if device=mac tenant=acme\n")
        #expect(diff.changes().isEmpty)
    }

    @Test func aSubjectJoiningAGroupGainsWhatTheGroupIsAllowed() throws {
        let diff = try Self.diff(
            "group editors alice\nallow @editors write docs/*\n",
            "group editors alice bob\nallow @editors write docs/*\n")
        let changes = diff.changes()
        #expect(changes.map(\.subject) == ["bob"])
        #expect(changes.first?.action == "write")
        #expect(changes.first?.example.resource.hasPrefix("docs/") == true)
        #expect(changes.first?.after == [RuleReference(source: "new.rules", line: 2)])
    }

    @Test func aSubjectJoiningANestedGroupGainsWhatTheOuterGroupIsAllowed() throws {
        let diff = try Self.diff(
            "group staff @editors\ngroup editors alice\nallow @staff read wiki/*\n",
            "group staff @editors\ngroup editors alice carol\nallow @staff read wiki/*\n")
        #expect(diff.changes().map(\.subject) == ["carol"])
    }

    @Test func aChangedRuleForOneActionLeavesTheOtherActionsOfItsSubjectUnchanged() throws {
        let diff = try Self.diff(
            "allow alice read docs/*\nallow alice write docs/*\n",
            "allow alice read docs/*\nallow alice write docs/own/*\n")
        let changes = diff.changes()
        #expect(changes.map(\.action) == ["write"])
        #expect(changes.map(\.subject) == ["alice"])
    }
}
