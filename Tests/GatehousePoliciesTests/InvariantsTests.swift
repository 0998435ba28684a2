import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehousePolicies

/// Invariants: the format, and the designed cases a symbolic check must get right (a placeholder
/// that a literal subject satisfies, exceptions, groups, conditions, denies that cover or not).
@Suite("Invariants")
struct InvariantsTests {
    static func breach(_ rules: String, _ invariant: String) throws -> RulesFile.InvariantBreach? {
        let file = try RulesFile.parse(rules, fileName: "docs.rules")
        let invariants = try Invariants(text: invariant, name: "guard.invariants")
        return file.breaches(of: invariants).first
    }

    @Test func aPlaceholderSubjectNamedSecretsBreaksNeverReadSecrets() throws {
        let found = try #require(try Self.breach("allow * read {subject}/*", "never * read secrets/*"))
        #expect(found.request?.subject == "secrets")
        #expect(found.request?.resource.hasPrefix("secrets/") == true)
        #expect(found.allowingLine == 1)
        #expect(found.invariant.line == 1)
    }

    /// A combining mark right after a placeholder's `}` makes one `Character` with it, yet the
    /// engine reads the brace by scalar: the check must see the placeholder too, or the caller's
    /// attribute that reaches the forbidden folder goes untried.
    @Test func aPlaceholderFollowedByACombiningMarkIsSeenByTheCheck() throws {
        let file = try RulesFile.parse("allow * read {t}\u{301}y/*", fileName: "docs.rules")
        let request = AccessRequest(
            subject: "alice", action: "read", resource: "x\u{301}y/z", attributes: ["t": "x"])
        #expect(file.decide(request)?.effect == .allow)
        let found = try #require(try Self.breach("allow * read {t}\u{301}y/*", "never * read x\u{301}y/*"))
        #expect(found.request?.attributes["t"] == "x", "\(String(describing: found.request))")
    }

    @Test func aPlaceholderBoundToAnotherSubjectKeepsTheInvariant() throws {
        #expect(try Self.breach("allow alice read {subject}/*", "never * read secrets/*") == nil)
    }

    @Test func anExceptedSubjectMayBeAllowedAndAnyOtherMayNot() throws {
        let invariant = "never * read secrets/* except auditor"
        #expect(try Self.breach("allow auditor read secrets/*", invariant) == nil)
        let found = try #require(try Self.breach("allow aud* read secrets/*", invariant))
        #expect(found.request?.subject != "auditor")
        #expect(found.request?.subject?.hasPrefix("aud") == true)
    }

    @Test func aDenyWithoutConditionsCoveringTheAllowKeepsTheInvariant() throws {
        let rules = "allow * read secrets/*\ndeny * * secrets/*"
        #expect(try Self.breach(rules, "never * read secrets/*") == nil)
    }

    @Test func aDenyCoveringOnlyPartOfTheAllowLeavesTheRestBroken() throws {
        let rules = "allow * read secrets/*\ndeny * read secrets/a/*"
        let found = try #require(try Self.breach(rules, "never * read secrets/*"))
        #expect(found.request?.resource.hasPrefix("secrets/a/") == false)
    }

    @Test func aDenyWithAConditionLeavesTheInvariantBrokenForOtherAttributes() throws {
        let rules = "allow * read secrets/*\ndeny * * secrets/* if device=unmanaged"
        let found = try #require(try Self.breach(rules, "never * read secrets/*"))
        #expect(found.request?.attributes["device"] != "unmanaged")
    }

    @Test func aDenyAskingTheAllowsOwnConditionKeepsTheInvariant() throws {
        let rules = "allow * read secrets/* if tenant=acme\ndeny * read secrets/* if tenant=acme"
        #expect(try Self.breach(rules, "never * read secrets/*") == nil)
    }

    @Test func anAllowWithAConditionBreaksTheInvariantWithThoseAttributes() throws {
        let found = try #require(
            try Self.breach("allow * read secrets/* if tenant=acme", "never * read secrets/*"))
        #expect(found.request?.attributes == ["tenant": "acme"])
    }

    @Test func aGroupBreaksTheInvariantThroughAMemberNotExcepted() throws {
        let invariant = "never * * keys/* except carol"
        #expect(try Self.breach("group admins carol\nallow @admins * keys/*", invariant) == nil)
        let found = try #require(
            try Self.breach(
                "group admins carol\ngroup admins @ops\ngroup ops dave\nallow @admins * keys/*", invariant))
        #expect(found.request?.subject == "dave")
    }

    @Test func aRequestWithoutSubjectBreaksAnInvariantOnEverySubject() throws {
        let found = try #require(try Self.breach("allow * read pub/*", "never * read pub/*"))
        #expect(found.request?.subject == nil)
        #expect(try Self.breach("allow * read pub/*", "never alice write pub/*") == nil)
    }

    @Test func theReportedRuleIsTheOneThatDecides() throws {
        let rules = "allow * read docs/*\nallow * read secrets/*"
        let found = try #require(try Self.breach(rules, "# promises\nnever * read secrets/x"))
        #expect(found.allowingLine == 2)
        #expect(found.invariant.line == 2)
        #expect(found.request?.resource == "secrets/x")
    }

    @Test func theErrorNamesTheRuleTheInvariantAndACounterexample() throws {
        let file = try RulesFile.parse("allow * read {subject}/*", fileName: "docs.rules")
        let invariants = try Invariants(text: "never * read secrets/*", name: "guard.invariants")
        let error = file.invariantError(file.breaches(of: invariants), invariants: invariants.name)
        #expect(error.kind == .breaksInvariant)
        #expect(
            error.errorDescription?.hasPrefix(
                "docs.rules:1: breaks the invariant guard.invariants:1 (never * read secrets/*): it allows "
                    + "subject \"secrets\", action \"read\", resource \"secrets/") == true)
    }

    @Test(arguments: [
        ("never * read", "expected 4 fields (never subject action resource), found 3"),
        ("forbid * read x", "unknown keyword \"forbid\""),
        ("never @admins read x", "names a group"),
        ("never * read {subject}/*", "holds a brace"),
        ("never * read x except", "\"except\" with no subject"),
        ("never * read x unless bob", "expected \"except\""),
        ("never * read x except b*", "is not an exact subject"),
    ])
    func aMalformedLineIsRefusedWithItsFileAndLine(line: String, message: String) throws {
        let error = try #require(throws: RulesFileError.self) {
            try Invariants(text: "# header\n\(line)", name: "guard.invariants")
        }
        #expect(error.line == 2)
        #expect(error.errorDescription?.hasPrefix("guard.invariants:2: ") == true)
        #expect(error.message.contains(message))
    }

    @Test func anEmptyFileIsRefusedAndACommentOnlyFileHoldsNoInvariant() throws {
        #expect(throws: RulesFileError.self) { try Invariants(text: "", name: "guard.invariants") }
        #expect(try Invariants(text: "# none yet", name: "guard.invariants").count == 0)
    }

    @Test func aRulesPolicyThatBreaksAnInvariantIsRefused() throws {
        let invariants = try Invariants(text: "never * * keys/*", name: "guard.invariants")
        #expect(throws: RulesFileError.self) {
            try RulesPolicy(text: "allow * read keys/a", name: "setup", invariants: invariants)
        }
        #expect(
            try RulesPolicy(text: "allow * read docs/*", name: "setup", invariants: invariants).ruleCount == 1
        )
    }

    @Test func anInvariantsFileIsReadFromDisk() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("guard.invariants", "never * * keys/*\n")
        let invariants = try Invariants(contentsOf: url)
        #expect(invariants.name == "guard.invariants")
        #expect(invariants.count == 1)
        #expect(throws: RulesFileError.self) {
            try Invariants(contentsOf: directory.file("missing.invariants"))
        }
    }
}
