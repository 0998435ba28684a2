import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A service's `"invariants"`: read once at assembly and handed to each of its rules files, so a
/// version that breaks one is invalid, in decisions and in validation alike.
@Suite("Service invariants")
struct ServiceInvariantsTests {
    static let configuration = """
        { "services": { "docs": {
            "loader": { "type": "memory", "resources": {} },
            "invariants": "guard.invariants",
            "gatekeepers": [{ "type": "allOf", "gatekeepers": [
                { "type": "alwaysAllow" }, { "type": "file", "path": "docs.rules" } ] }] } } }
        """

    static func folder(rules: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try folder.write("# promises\nnever * read secrets/*\n", to: "guard.invariants")
        try folder.write(rules, to: "docs.rules")
        try folder.write(Self.configuration, to: "gatehouse.json")
        return folder
    }

    @Test func aRulesFileThatBreaksTheServicesInvariantFailsItsDecisions() async throws {
        let folder = try Self.folder(rules: "allow * read {subject}/*\n")
        defer { folder.cleanUp() }
        let docs = try Assembler().assemble(contentsOf: folder.file("gatehouse.json")).service(named: "docs")
        let verdict = try await docs.decide(AccessRequest(subject: "alice", resource: "alice/a"))
        #expect(verdict.outcome == .failed)
        #expect(
            verdict.reason?.contains(
                "docs.rules:1: breaks the invariant guard.invariants:2 (never * read secrets/*): it allows "
                    + "subject \"secrets\"") == true, "\(verdict)")
    }

    @Test func validationNamesTheInvariantTheCounterexampleAndTheRule() async throws {
        let folder = try Self.folder(rules: "allow alice read docs/*\nallow * read secrets/*\n")
        defer { folder.cleanUp() }
        let issues = try await ValidationTests.validationIssues(Self.configuration, in: folder)
        #expect(
            issues == [
                "services.docs.gatekeepers[0].gatekeepers[1]: docs.rules:2: breaks the invariant "
                    + "guard.invariants:2 (never * read secrets/*): it allows no subject, action \"read\", "
                    + "resource \"secrets/x\""
            ])
    }

    @Test func rulesThatKeepTheInvariantsAreValid() async throws {
        let folder = try Self.folder(rules: "allow * read docs/*\n")
        defer { folder.cleanUp() }
        #expect(try await ValidationTests.validationIssues(Self.configuration, in: folder).isEmpty)
    }

    @Test func aMissingOrMalformedInvariantsFileIsAnAssemblyIssue() throws {
        let folder = try Self.folder(rules: "allow * read docs/*\n")
        defer { folder.cleanUp() }
        try folder.write("never * read\n", to: "guard.invariants")
        let json = try folder.file("gatehouse.json")
        #expect(throws: ConfigurationError.self) { try Assembler().assemble(contentsOf: json) }
        do {
            _ = try Assembler().assemble(contentsOf: json)
        } catch let error as ConfigurationError {
            #expect(
                error.issues.map(\.description) == [
                    "services.docs.invariants: guard.invariants:1: expected 4 fields (never subject action "
                        + "resource), found 3"
                ])
        }
        try FileManager.default.removeItem(at: folder.file("guard.invariants"))
        #expect(throws: ConfigurationError.self) { try Assembler().assemble(contentsOf: json) }
    }

    @Test func theInvariantsKeyMustBeAPath() {
        #expect(
            issues(service(gatekeepers: #"[{ "type": "alwaysAllow" }]"#, extra: #", "invariants": 3"#))
                == ["services.s.invariants: expected the path of an invariants file, found 3"])
    }

    /// Where no rules file can deny on its own (`anyOf`, `not`, or none at all), a rules file
    /// that keeps the promises does not make the chain keep them: the service is not assembled.
    @Test func promisesNoRulesFileCanKeepAloneAreAnAssemblyIssue() throws {
        let folder = try Self.folder(rules: "allow * read docs/*\n")
        defer { folder.cleanUp() }
        let file = #"{ "type": "file", "path": "docs.rules" }"#
        for gatekeepers in [
            #"[{ "type": "anyOf", "gatekeepers": [ \#(file), { "type": "alwaysAllow" } ] }]"#,
            #"[{ "type": "not", "gatekeeper": \#(file) }]"#,
            #"[{ "type": "alwaysAllow" }]"#,
        ] {
            let json = """
                { "services": { "docs": {
                    "loader": { "type": "memory", "resources": {} },
                    "invariants": "guard.invariants", "gatekeepers": \(gatekeepers) } } }
                """
            do {
                _ = try Assembler().assemble(json: Data(json.utf8), baseDirectory: folder.url)
                Issue.record("assembled \(gatekeepers)")
            } catch let error as ConfigurationError {
                #expect(
                    error.issues.map(\.description) == [
                        "services.docs.invariants: no rules file of the service can deny a request on its own "
                            + "(a \"file\" gatekeeper in \"gatekeepers\", directly or inside \"allOf\"), so "
                            + "nothing would keep these promises; each rules file keeps them by itself (see "
                            + "docs/invariants.md)"
                    ], "\(gatekeepers)")
            }
        }
    }

    /// A rules file inside `allOf` keeps the promises, whichever key names its members (the older
    /// `"policies"` is still read).
    @Test func aRulesFileInsideAllOfKeepsThePromisesUnderEitherKey() throws {
        let folder = try Self.folder(rules: "allow * read docs/*\n")
        defer { folder.cleanUp() }
        let file = #"{ "type": "file", "path": "docs.rules" }"#
        for key in ["gatekeepers", "policies"] {
            let json = """
                { "services": { "docs": {
                    "loader": { "type": "memory", "resources": {} },
                    "invariants": "guard.invariants",
                    "gatekeepers": [{ "type": "allOf", "\(key)": [ { "type": "alwaysAllow" }, \(file) ] }] } } }
                """
            #expect(throws: Never.self, "\(key)") {
                _ = try Assembler().assemble(json: Data(json.utf8), baseDirectory: folder.url)
            }
        }
    }

    /// Each rules file keeps the promises by itself: a version that allows a forbidden request is
    /// refused even where another rules file of the chain denies that request (see
    /// docs/invariants.md, "What is checked").
    @Test func eachRulesFileKeepsThePromisesEvenWhereAnotherFileDeniesTheRequest() async throws {
        let folder = try Self.folder(rules: "allow * read docs/*\nallow * read secrets/*\n")
        defer { folder.cleanUp() }
        try folder.write("allow * read docs/*\n", to: "guard.rules")
        try folder.write(
            """
            { "services": { "docs": {
                "loader": { "type": "memory", "resources": {} },
                "invariants": "guard.invariants",
                "gatekeepers": [ { "type": "file", "path": "guard.rules" }, { "type": "file", "path": "docs.rules" } ]
            } } }
            """, to: "gatehouse.json")
        let docs = try Assembler().assemble(contentsOf: folder.file("gatehouse.json")).service(named: "docs")
        // guard.rules alone already denies every read of secrets/*, yet docs.rules is refused.
        let verdict = try await docs.decide(AccessRequest(subject: "alice", resource: "docs/a"))
        #expect(verdict.outcome == .failed)
        #expect(verdict.reason?.contains("docs.rules:2: breaks the invariant guard.invariants:2") == true)
    }
}
