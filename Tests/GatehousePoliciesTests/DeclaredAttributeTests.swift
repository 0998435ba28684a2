import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// `RulesPolicy(..., attributes:)` and `FilePolicy(..., attributes:)`: with the attribute names
/// requests carry declared, a placeholder or condition naming another is a problem of the text.
@Suite("Declared attributes in rules")
struct DeclaredAttributeTests {
    /// Two misspelt names, one unknown name and a malformed line, on lines 2 to 5.
    static let rules = """
        # documents
        allow  *  read   tenants/{tennant}/*
        deny   *  *      exports/* if devce=managed
        allow  *  read   shared/{tenant}/* if region=eu
        allow  bob read
        allow  *  write  docs/* if owner={subject}
        allow  *  read   users/{subject}/*
        """
    static let declared = ["tenant", "device", "owner"]

    static let expected = [
        "docs:2: the placeholder {tennant} names the attribute \"tennant\", which is not declared "
            + "(did you mean \"tenant\"?)",
        "docs:3: the condition devce=managed names the attribute \"devce\", which is not declared "
            + "(did you mean \"device\"?)",
        "docs:4: the condition region=eu names the attribute \"region\", which is not declared; "
            + "the declared ones are tenant, device, owner",
        "docs:5: expected 4 fields (effect subject action resource), found 3",
    ]

    @Test func everyUndeclaredNameIsAProblemWithADidYouMeanBesideTheOtherProblems() throws {
        let error = try #require(throws: RulesFileError.self) {
            try RulesPolicy(text: Self.rules, name: "docs", attributes: Self.declared)
        }
        #expect(error.problemDescriptions == Self.expected)
        #expect(error.problems.allSatisfy { $0.kind == .malformed })
    }

    @Test func withoutADeclarationNoNameIsChecked() throws {
        let fixed = Self.rules.replacingOccurrences(of: "allow  bob read\n", with: "")
        #expect(try RulesPolicy(text: fixed, name: "docs").ruleCount == 5)
        #expect(
            try RulesPolicy(
                text: fixed, name: "docs", attributes: ["tenant", "devce", "region", "owner", "tennant"]
            ).ruleCount == 5)
    }

    @Test func withNothingDeclaredEveryAttributeIsAProblem() throws {
        let error = try #require(throws: RulesFileError.self) {
            try RulesPolicy(text: "allow * read t/{tenant}/*", attributes: [])
        }
        #expect(error.file.hasPrefix("DeclaredAttributeTests.swift:"))
        #expect(
            error.message
                == "the placeholder {tenant} names the attribute \"tenant\", which is not declared; "
                + "no attribute is declared")
    }

    @Test func aFilePolicyReportsUndeclaredNamesWhenValidated() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let url = try folder.write(Self.rules, to: "docs.rules")
        let policy = FilePolicy(url: url, attributes: Self.declared)
        #expect(policy.attributes == Self.declared)
        #expect(
            await policy.validationIssues().map(\.message)
                == Self.expected.map { "docs.rules" + $0.dropFirst("docs".count) })
        #expect(
            await FilePolicy(url: url).validationIssues().map(\.message) == [
                "docs.rules" + Self.expected[3].dropFirst(4)
            ])
    }

    /// The lexer's lines: a byte-order mark and CRLF line ends do not hide a name.
    @Test func aNameIsFoundOnTheLineTheParserReads() throws {
        let text = "\u{FEFF}allow * read t/{tennant}/*\r\n# c\r\ndeny * * x if devce=on\r\n"
        let error = try #require(throws: RulesFileError.self) {
            try RulesPolicy(text: text, name: "r", attributes: ["tenant", "device"])
        }
        #expect(error.problems.map(\.line) == [1, 3])
    }

    @Test func aFileNamingAnUndeclaredAttributeFailsEveryDecision() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let url = try folder.write("allow * read t/{tennant}/*\n", to: "docs.rules")
        let request = AccessRequest(subject: "alice", resource: "t/acme/a", attributes: ["tenant": "acme"])
        let error = await #expect(throws: RulesFileError.self) {
            try await FilePolicy(url: url, attributes: ["tenant"]).evaluate(request)
        }
        #expect(error?.line == 1)
        #expect(error?.kind == .malformed)
    }

    @Test func withKeepLastGoodAVersionNamingAnUndeclaredAttributeLeavesTheLastGoodOneDeciding()
        async throws
    {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let url = try folder.write("allow * read t/{tenant}/*\n", to: "docs.rules")
        let policy = FilePolicy(url: url, whenInvalid: .keepLastGood, attributes: ["tenant"])
        let request = AccessRequest(subject: "alice", resource: "t/acme/a", attributes: ["tenant": "acme"])
        #expect(try await policy.evaluate(request) == .allow)
        try replaceAtomically(url, with: "allow * read t/{tennant}/*\n")
        #expect(try await policy.evaluate(request) == .allow)
        #expect(policy.invalidCurrentVersion?.line == 1)
    }

    @Test func validationNamesTheAttributesAFileReadsWhenNoneAreDeclared() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let fixed = Self.rules.replacingOccurrences(of: "allow  bob read\n", with: "")
        let url = try folder.write(fixed, to: "docs.rules")
        let counts = try FilePolicy(url: url).validationCounts()
        #expect(counts.rules == 5)
        #expect(counts.attributes == ["devce", "owner", "region", "tenant", "tennant"])
        let declared = ["devce", "owner", "region", "tenant", "tennant"]
        #expect(try FilePolicy(url: url, attributes: declared).validationCounts().attributes.isEmpty)
        let plain = try folder.write("allow * read users/{subject}/*\n", to: "plain.rules")
        #expect(try FilePolicy(url: plain).validationCounts().attributes.isEmpty)
    }
}
