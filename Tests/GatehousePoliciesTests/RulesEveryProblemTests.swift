import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// Reading a rules file reports every problem in one pass, each at its line, with "and N more"
/// past a hundred, and a did-you-mean for a misspelt keyword.
@Suite("Rules files: every problem in one pass")
struct RulesEveryProblemTests {
    /// Six mistakes of six kinds, on lines 3, 4, 5, 6, 7 and 8.
    static let sixMistakes = """
        # documents
        group  editors  alice bob
        alow   *         read   docs/*
        allow  bob       read
        deny   *         read   docs/*  if device
        allow  *         read   tenants/{tennant/docs
        allow  @editorz  write  docs/*
        deny   mallory\u{00A0}read   secret/*
        allow  @editors  write  docs/*
        """

    @Test func aFileWithSixMistakesReportsAllSixInLineOrder() throws {
        let error = try #require(rulesParseError(Self.sixMistakes))
        #expect(error.problems.map(\.line) == [3, 4, 5, 6, 7, 8], "\(error)")
        #expect(error.unlistedProblemCount == 0)
        let messages = error.problems.map(\.message)
        #expect(
            messages[0].contains(#"unknown effect "alow""#) && messages[0].contains(#"did you mean "allow"?"#)
        )
        #expect(messages[1].hasPrefix("expected 4 fields"))
        #expect(messages[2].contains(#"has no "=""#))
        #expect(messages[3].contains(#"a "{" without a matching "}""#))
        #expect(messages[4] == #"undefined group "editorz"; did you mean "editors"?"#)
        #expect(messages[5].contains("U+00A0"))
        #expect(error.description.split(separator: "\n").count == 6)
        #expect(error.description.hasPrefix("r.rules:3: unknown effect"))
    }

    @Test func theFirstProblemIsStillThePrimaryOne() throws {
        let error = try #require(rulesParseError(Self.sixMistakes))
        #expect(error.line == 3)
        #expect(error.kind == .malformed)
        #expect(error.errorDescription == "r.rules:3: \(error.message) (and 5 more problems)")
    }

    @Test(arguments: [("dney", "deny"), ("gruop", "group"), ("alow", "allow"), ("Allow", "allow")])
    func aMisspeltKeywordGetsADidYouMean(written: String, meant: String) throws {
        let error = try #require(rulesParseError("\(written) * read docs/*\n"))
        #expect(error.message.hasSuffix("did you mean \"\(meant)\"?"), "\(error.message)")
    }

    @Test func aWordFarFromEveryKeywordGetsNoSuggestion() throws {
        let error = try #require(rulesParseError("permit * read docs/*\n"))
        #expect(error.message == #"unknown effect "permit"; expected allow, deny or group"#)
    }

    @Test func aCycleAnUndefinedGroupAndAMissingEndAreReportedTogether() throws {
        let text = "group a @b\ngroup b @a\nallow @c read x\nalow * read y\n"
        let error = try #require(rulesParseError(text, requireEnd: true))
        #expect(error.problems.map(\.line) == [2, 3, 4, nil], "\(error)")
        #expect(error.problems[0].message.hasPrefix("group cycle: "))
        #expect(error.problems.last?.kind == .incomplete)
    }

    @Test func linesAfterTheEndLineAreNamedOnceAndStillChecked() throws {
        let error = try #require(rulesParseError("allow a read x\nend\nallow a read y\nalow b read z\n"))
        #expect(error.problems.map(\.line) == [3, 4], "\(error)")
        #expect(error.problems[0].message.hasPrefix("a line after the end line"))
    }

    @Test func aFileWithAHundredAndFiftyProblemsListsAHundredAndCountsTheRest() throws {
        let text = String(repeating: "alow * read docs/*\n", count: 150)
        let error = try #require(rulesParseError(text))
        #expect(error.problems.count == 100)
        #expect(error.problems.last?.line == 100)
        #expect(error.unlistedProblemCount == 50)
        #expect(error.problemDescriptions.count == 101)
        #expect(error.problemDescriptions.last == "r.rules: and 50 more")
        #expect(error.errorDescription?.hasSuffix("(and 149 more problems)") == true)
    }

    @Test func theCountOfUnlistedProblemsHasThousandsSeparators() throws {
        let error = try #require(rulesParseError(String(repeating: "alow * read docs/*\n", count: 1_200)))
        #expect(error.problemDescriptions.last == "r.rules: and 1,100 more")
        #expect(error.errorDescription?.hasSuffix("(and 1,199 more problems)") == true)
    }

    @Test func everyUndefinedGroupIsAProblemAtTheLineFirstNamingIt() throws {
        let text = "group editors a\n" + (1...150).map { "allow @g\($0) read x\n" }.joined()
        let error = try #require(rulesParseError(text))
        #expect(error.problems.map(\.line) == Array(2...101))
        #expect(
            error.problems[0].message == #"undefined group "g1"; define it with a line "group g1 MEMBER...""#)
        #expect(error.unlistedProblemCount == 50)
    }

    @Test func filePolicyValidationReportsEverySixProblemsAndStillFailsEveryDecision() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("docs.rules")
        try Data(Self.sixMistakes.utf8).write(to: url)
        let policy = FilePolicy(url: url)
        let issues = await policy.validationIssues()
        #expect(
            issues.map(\.message).map { $0.prefix { $0 != ":" } } == Array(repeating: "docs.rules", count: 6))
        #expect(issues.first?.message.hasPrefix("docs.rules:3: unknown effect") == true)
        #expect(throws: RulesFileError.self) { try policy.validate() }
        let request = AccessRequest(subject: "alice", resource: "docs/a")
        await #expect(throws: RulesFileError.self) { _ = try await policy.evaluate(request) }
    }
}
