import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehousePolicies

/// Rules that never change a decision: each one reported is confirmed by removing it, against
/// every request of a universe, and the plain forms (duplicates, an allow inside a wider allow
/// with the same conditions, an allow under a wider deny, a member inside its group) are found.
@Suite("Rules that never decide")
struct NeverDecidingTests {
    static func never(_ text: String) throws -> [RulesFile.NeverDeciding] {
        try RulesFile.parse(text, fileName: "docs.rules").neverDeciding
    }

    @Test func aDuplicateIsReportedOnceTheLaterOne() throws {
        #expect(
            try Self.never("allow alice read docs/*\nallow alice read docs/*")
                == [.init(line: 2, coveredBy: [1])])
    }

    @Test func anAllowInsideAWiderAllowWithTheSameConditionsIsReported() throws {
        let text = """
            allow alice read docs/* if tenant=acme
            allow alice read docs/a if tenant=acme
            allow alice read docs/b if tenant=acme region=eu
            allow alice read docs/c
            """
        // Line 4 asks no condition, so line 1 (which asks one) does not cover it.
        #expect(try Self.never(text) == [.init(line: 2, coveredBy: [1]), .init(line: 3, coveredBy: [1])])
    }

    @Test func anAllowUnderAWiderDenyIsReportedAndTheDenyIsNot() throws {
        let text = "allow * read secret/*\ndeny * * secret/*"
        #expect(try Self.never(text) == [.init(line: 1, coveredBy: [2])])
    }

    @Test func aMemberInsideItsGroupAndAPatternInsideAWiderOneAreReported() throws {
        let text = """
            group editors erin
            allow @editors write docs/*
            allow erin write docs/drafts/*
            allow a* read pub/*
            allow ann read pub/x*y
            allow * re* pub/*
            """
        #expect(
            try Self.never(text) == [
                .init(line: 3, coveredBy: [2]), .init(line: 4, coveredBy: [6]),
                .init(line: 5, coveredBy: [4, 6]),
            ])
    }

    @Test func aPlaceholderCoversOnlyItselfAndIsCoveredAsAStar() throws {
        let text = """
            allow * read home/{subject}/*
            allow alice read home/{subject}/notes
            allow * read home/alice/*
            allow * read home/*
            """
        // Lines 1 and 2 are covered read as home/*/* and home/*/notes; line 1, holding a
        // placeholder, covers neither line 2 nor line 3 (it would only cover its own pattern).
        #expect(
            try Self.never(text) == [
                .init(line: 1, coveredBy: [4]), .init(line: 2, coveredBy: [4]),
                .init(line: 3, coveredBy: [4]),
            ])
    }

    @Test func nothingIsReportedWhereEveryRuleDecidesSomething() throws {
        let text = """
            allow alice read docs/*
            allow bob read docs/*
            deny * * docs/secret/*
            allow * write drafts/* if role=editor
            """
        #expect(try Self.never(text).isEmpty)
    }

    @Test func theStarCoverageIsExactOnPatterns() {
        let cases: [(String, String, Bool)] = [
            ("a*", "ab*", true), ("ab*", "a*", false), ("*b", "a*b", true), ("a*b", "*b", false),
            ("*", "", true), ("a*c", "ab*bc", true), ("a*b*c", "a*c", false), ("*a*", "ba*b", true),
            ("a**b", "a*b", true), ("x", "x", true), ("x", "*", false),
        ]
        for (wide, narrow, covers) in cases {
            #expect(RulesFile.patternCovers(wide, narrow) == covers, "\(wide) ⊇ \(narrow)")
        }
    }

    /// Random files over small alphabets, each reported rule removed and every request of the
    /// universe decided again: the decision (allow or not) never changes.
    @Test func everyRuleReportedIsConfirmedByRemovingItOverAUniverse() throws {
        var generator = SplitMix64(seed: 39)
        let subjects = ["*", "alice", "bob", "a*", "@team", "*e"]
        let actions = ["read", "write", "*", "re*"]
        let resources = ["docs/*", "docs/a", "d*", "docs/{subject}", "*", "docs/*/x", "pub/*", "*a"]
        let conditions = ["", " if k=v", " if k={subject}", " if k=v j=w"]
        let universe: [AccessRequest] = {
            var requests: [AccessRequest] = []
            for subject in [nil, "alice", "bob", "carol", "ae"] as [String?] {
                for action in ["read", "write", "delete"] {
                    for resource in [
                        "docs/a", "docs/b", "docs/alice", "docs/bob/x", "d", "pub/a", "x", "docs/", "a",
                    ] {
                        for attributes in [[:], ["k": "v"], ["k": "alice"], ["k": "v", "j": "w"]] {
                            requests.append(
                                AccessRequest(
                                    subject: subject, action: AccessAction(rawValue: action),
                                    resource: resource,
                                    attributes: attributes))
                        }
                    }
                }
            }
            return requests
        }()
        var reported = 0
        var checks = 0
        for _ in 0..<600 {
            let count = Int.random(in: 2...6, using: &generator)
            var lines = ["group team alice ae"]
            for _ in 0..<count {
                let effect = Int.random(in: 0..<4, using: &generator) == 0 ? "deny" : "allow"
                lines.append(
                    "\(effect) \(subjects.randomElement(using: &generator)!) "
                        + "\(actions.randomElement(using: &generator)!) "
                        + "\(resources.randomElement(using: &generator)!)\(conditions.randomElement(using: &generator)!)"
                )
            }
            let file = try RulesFile.parse(lines.joined(separator: "\n"), fileName: "r.rules")
            for never in file.neverDeciding {
                reported += 1
                var without = lines
                without.remove(at: never.line - 1)
                let smaller = try RulesFile.parse(without.joined(separator: "\n"), fileName: "r.rules")
                for request in universe {
                    checks += 1
                    #expect(
                        (file.decide(request)?.effect == .allow)
                            == (smaller.decide(request)?.effect == .allow),
                        "removing line \(never.line) of \(lines) changes \(request)")
                }
            }
        }
        #expect(reported > 100)
        #expect(checks > 100_000)
    }
}
