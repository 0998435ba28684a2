import GatehouseCore
import GatehousePolicies
import Testing

/// The engine against the brute-force model in `RulesReferenceModel.swift`, on seeded random
/// files, and both against hand-written tables for the fine points of the format.
@Suite("Rules with groups, placeholders and conditions agree with a brute-force reference")
struct RulesReferenceTests {
    /// How many disagreements a comparison prints in full before it only counts them.
    static let printedMismatches = 5

    /// Compares the engine with the reference on `files` random files of `requests` requests
    /// each, and returns how many verdicts disagreed (each of the first few is also recorded as
    /// an issue with the file and the request).
    static func compare(
        seed: UInt64, features: RulesGenerator.Features, files: Int, requests: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        var generator = RulesGenerator(seed: seed, features: features)
        var mismatches = 0
        /// Counts a disagreement, and records the first few in full.
        func disagree(_ message: @autoclosure () -> String) {
            mismatches += 1
            if mismatches <= printedMismatches {
                Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation)
            }
        }
        for fileIndex in 0..<files {
            let file = generator.file()
            let reference: ReferenceRules
            do {
                reference = try ReferenceRules(parsing: file.text)
            } catch {
                Issue.record(
                    "the generator wrote a file the reference rejects (\(error)):\n\(numbered(file.text))",
                    sourceLocation: sourceLocation)
                return mismatches + 1
            }
            let rules: RulesFile
            do {
                rules = try RulesFile.parse(file.text, fileName: "random.rules")
            } catch {
                disagree("file \(fileIndex) does not parse: \(error)\n\(numbered(file.text))")
                continue
            }
            for _ in 0..<requests {
                let request = generator.request(for: file)
                let expected = reference.decide(request)
                let actual = rules.decide(request)
                if actual != expected {
                    disagree(
                        """
                        engine \(describe(actual)), reference \(describe(expected))
                        request: \(describe(request))
                        file \(fileIndex):
                        \(numbered(file.text))
                        """)
                }
            }
        }
        return mismatches
    }

    static func describe(_ verdict: RulesFile.Verdict?) -> String {
        verdict.map { "\($0.effect) by line \($0.line)" } ?? "no verdict"
    }

    static func describe(_ request: AccessRequest) -> String {
        let attributes = request.attributes.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.debugDescription)" }.joined(separator: " ")
        return
            "subject \(request.subject?.debugDescription ?? "nil") action \(request.action.rawValue.debugDescription) "
            + "resource \(request.resource.debugDescription) attributes [\(attributes)]"
    }

    /// The text with line numbers, as a reader of a failure needs it.
    static func numbered(_ text: String) -> String {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated().map {
                "\($0.offset + 1)| \(String(decoding: $0.element, as: UTF8.self).debugDescription)"
            }
            .joined(separator: "\n")
    }

    @Test(arguments: [0x5eed_0001, 0x5eed_0002, 0x5eed_0003] as [UInt64])
    func agreesWithTheReferenceOnRandomFilesWithGroupsPlaceholdersAndConditions(seed: UInt64) {
        let mismatches = Self.compare(seed: seed, features: .all, files: 100, requests: 100)
        #expect(mismatches == 0, "\(mismatches) verdicts differ from the reference (seed \(seed))")
    }

    @Test func agreesWithTheReferenceOnRandomPlainFiles() {
        let mismatches = Self.compare(seed: 0x5eed_1001, features: .plain, files: 100, requests: 100)
        #expect(mismatches == 0, "\(mismatches) verdicts differ from the reference")
    }

    /// Files whose rules share one to three resource patterns, 20 to 60 rules in all: a resource
    /// pattern with more than eight rules has them filed by subject key, and a decision looks
    /// each of the request's subject keys up instead of reading them all.
    @Test(arguments: [0x5eed_2001, 0x5eed_2002] as [UInt64])
    func agreesWithTheReferenceWhereOneResourcePatternHasManyRules(seed: UInt64) throws {
        var features = RulesGenerator.Features.all
        features.manyRulesPerResource = true
        let mismatches = Self.compare(seed: seed, features: features, files: 100, requests: 100)
        #expect(mismatches == 0, "\(mismatches) verdicts differ from the reference (seed \(seed))")
        // The files do put more than eight rules on one resource pattern.
        var generator = RulesGenerator(seed: seed, features: features)
        var crowded = 0
        for _ in 0..<100 {
            let file = generator.file()
            let counts = Dictionary(grouping: file.rules, by: \.resource).values.map(\.count)
            if counts.contains(where: { $0 > 8 }) { crowded += 1 }
        }
        #expect(crowded >= 90)
    }

    /// Guards the comparison against proving nothing: the generated files use every feature,
    /// the reference accepts them, and the verdicts are a mix of deny, allow and none.
    @Test func theRandomFilesUseEveryFeatureAndGiveEveryKindOfVerdict() throws {
        var generator = RulesGenerator(seed: 0x5eed_0001)
        var seen: [String: Int] = [:]
        var deepest = 0
        for _ in 0..<100 {
            let file = generator.file()
            let reference = try ReferenceRules(parsing: file.text)
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
            func note(_ feature: String, _ present: Bool) { if present { seen[feature, default: 0] += 1 } }
            note("group", file.text.contains("group"))
            note("@ subject", reference.rules.contains { $0.subject.hasPrefix("@") })
            note("* subject", reference.rules.contains { $0.subject.count > 1 && $0.subject.contains("*") })
            note("* action", reference.rules.contains { $0.action.count > 1 && $0.action.contains("*") })
            note("{subject}", file.text.contains("{subject}"))
            note("{attribute}", file.text.contains("{tenant}") || file.text.contains("{org-id}"))
            note("if", reference.rules.contains { !$0.conditions.isEmpty })
            note(
                "* in a condition value",
                reference.rules.contains { $0.conditions.contains { $0.value.contains("*") } })
            note("comment", lines.contains { $0.contains("#") })
            note("end", lines.contains { $0.hasPrefix("end") })
            note("CRLF", file.text.contains("\r\n"))
            note(
                "group used before its line",
                reference.rules.contains { rule in
                    rule.subject.hasPrefix("@")
                        && reference.groupLines[String(rule.subject.dropFirst())]! > rule.line
                })
            var groupLineCounts: [Substring: Int] = [:]
            for line in lines {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if fields.count > 1 && fields[0] == "group" { groupLineCounts[fields[1], default: 0] += 1 }
            }
            note("group on several lines", groupLineCounts.values.contains { $0 > 1 })
            for group in file.groups {
                deepest = max(deepest, depth(of: group, in: reference))
            }
            for _ in 0..<100 {
                let request = generator.request(for: file)
                note("no subject", request.subject == nil)
                note("empty attribute", request.attributes.values.contains(""))
                note("attribute with /", request.attributes.values.contains { $0.contains("/") })
                note("attribute with *", request.attributes.values.contains { $0.contains("*") })
                switch reference.decide(request) {
                case .some(let verdict) where verdict.effect == .deny: note("deny", true)
                case .some: note("allow", true)
                case .none: note("no verdict", true)
                }
            }
        }
        for feature in [
            "group", "@ subject", "* subject", "* action", "{subject}", "{attribute}", "if",
            "* in a condition value", "comment", "end", "CRLF", "group used before its line",
            "group on several lines", "no subject", "empty attribute", "attribute with /", "attribute with *",
        ] {
            #expect(seen[feature, default: 0] >= 5, "\(feature): \(seen[feature, default: 0])")
        }
        let verdicts = seen["deny", default: 0] + seen["allow", default: 0] + seen["no verdict", default: 0]
        for verdict in ["deny", "allow", "no verdict"] {
            #expect(seen[verdict, default: 0] * 10 >= verdicts, "\(verdict): \(seen)")
        }
        #expect(deepest >= 6, "the deepest nesting is \(deepest) groups")
    }

    /// How many groups deep the longest chain of `@` members from `group` runs (1: no nesting).
    private func depth(of group: String, in reference: ReferenceRules) -> Int {
        let nested = (reference.groups[group] ?? []).filter { $0.hasPrefix("@") }
        return 1 + (nested.map { depth(of: String($0.dropFirst()), in: reference) }.max() ?? 0)
    }

    // MARK: - Tables for the fine points

    /// One request and the verdict the format gives it.
    struct Case: CustomTestStringConvertible {
        var rules: String
        var subject: String?
        var action = "read"
        var resource: String
        var attributes: [String: String] = [:]
        var expected: RulesFile.Verdict?
        var testDescription: String {
            "\(subject ?? "(no subject)") \(resource) \(attributes) → \(RulesReferenceTests.describe(expected))"
        }
    }

    /// Checks the engine and, so that the model is known to read the spec the same way, the
    /// reference.
    static func check(_ example: Case, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let request = AccessRequest(
            subject: example.subject, action: example.action, resource: example.resource,
            attributes: example.attributes)
        let reference = try ReferenceRules(parsing: example.rules)
        #expect(
            reference.decide(request) == example.expected, "the reference", sourceLocation: sourceLocation)
        let rules = try RulesFile.parse(example.rules, fileName: "t.rules")
        #expect(rules.decide(request) == example.expected, "the engine", sourceLocation: sourceLocation)
    }

    static let groupRules = """
        group everyone alice bob
        allow @everyone read shared/*
        deny  @everyone read shared/secret
        allow *         read public/*
        """

    @Test(arguments: [
        // `@everyone` never matches a request without a subject, for allow and deny alike.
        Case(rules: groupRules, subject: nil, resource: "shared/a", expected: nil),
        Case(rules: groupRules, subject: nil, resource: "shared/secret", expected: nil),
        Case(
            rules: groupRules, subject: "alice", resource: "shared/a",
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: groupRules, subject: "alice", resource: "shared/secret",
            expected: .init(effect: .deny, line: 3)),
        Case(rules: groupRules, subject: "carol", resource: "shared/a", expected: nil),
        // A subject named like the group is not its member.
        Case(rules: groupRules, subject: "everyone", resource: "shared/a", expected: nil),
        Case(rules: groupRules, subject: "@everyone", resource: "shared/a", expected: nil),
        // `*` does match a request without a subject.
        Case(rules: groupRules, subject: nil, resource: "public/a", expected: .init(effect: .allow, line: 4)),
    ])
    func aGroupSubjectNeverMatchesARequestWithoutSubjectWhileTheStarDoes(_ example: Case) throws {
        try Self.check(example)
    }

    @Test(arguments: [
        Case(
            rules: "allow * read users/{subject}/*\n", subject: "*", resource: "users/*/notes",
            expected: .init(effect: .allow, line: 1)),
        Case(
            rules: "allow * read users/{subject}/*\n", subject: "*", resource: "users/bob/notes",
            expected: nil),
        Case(
            rules: "allow * read users/{subject}/*\n", subject: "al*", resource: "users/al*/x",
            expected: .init(effect: .allow, line: 1)),
        Case(
            rules: "allow * read users/{subject}/*\n", subject: "al*", resource: "users/alice/x",
            expected: nil),
        Case(
            rules: "allow * read tenants/{tenant}\n", subject: nil, resource: "tenants/a*",
            attributes: ["tenant": "a*"],
            expected: .init(effect: .allow, line: 1)),
        Case(
            rules: "allow * read tenants/{tenant}\n", subject: nil, resource: "tenants/abc",
            attributes: ["tenant": "a*"],
            expected: nil),
        // In a condition, a `*` (written or substituted) is text too.
        Case(
            rules: "allow * read x if device=*\n", subject: "alice", resource: "x",
            attributes: ["device": "laptop"],
            expected: nil),
        Case(
            rules: "allow * read x if device=*\n", subject: "alice", resource: "x",
            attributes: ["device": "*"],
            expected: .init(effect: .allow, line: 1)),
        Case(
            rules: "allow * read x if owner={subject}\n", subject: "*", resource: "x",
            attributes: ["owner": "bob"],
            expected: nil),
    ])
    func aStarInASubstitutedValueIsText(_ example: Case) throws {
        try Self.check(example)
    }

    static let deniesOwnFolders = """
        deny  * read users/{subject}/*
        allow * read *
        deny  * write * if owner={subject}
        allow * write *
        deny  * read tenants/{tenant}/*
        """

    @Test(arguments: [
        Case(
            rules: deniesOwnFolders, subject: "bob", resource: "users/bob/x",
            expected: .init(effect: .deny, line: 1)),
        // The value holds `/`: the deny does not match, and the allow decides.
        Case(
            rules: deniesOwnFolders, subject: "bob/x", resource: "users/bob/x/y",
            expected: .init(effect: .allow, line: 2)),
        // No subject, an empty subject, or one with a control character: the same.
        Case(
            rules: deniesOwnFolders, subject: nil, resource: "users/bob/x",
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: deniesOwnFolders, subject: "", resource: "users//x",
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: deniesOwnFolders, subject: "b\u{7}", resource: "users/b\u{7}/x",
            expected: .init(effect: .allow, line: 2)),
        // `.` and `..` name no thing: the same, so that `users/{subject}/*` never stands for
        // `users/./*` or `users/../*`.
        Case(
            rules: deniesOwnFolders, subject: ".", resource: "users/./x",
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: deniesOwnFolders, subject: "..", resource: "users/../x",
            expected: .init(effect: .allow, line: 2)),
        // Names that only start or end with dots are names.
        Case(
            rules: deniesOwnFolders, subject: "...", resource: "users/.../x",
            expected: .init(effect: .deny, line: 1)),
        Case(
            rules: deniesOwnFolders, subject: ".bob", resource: "users/.bob/x",
            expected: .init(effect: .deny, line: 1)),
        // In a condition value too.
        Case(
            rules: deniesOwnFolders, subject: "bob", action: "write", resource: "d",
            attributes: ["owner": "bob"],
            expected: .init(effect: .deny, line: 3)),
        Case(
            rules: deniesOwnFolders, subject: "a/b", action: "write", resource: "d",
            attributes: ["owner": "a/b"],
            expected: .init(effect: .allow, line: 4)),
        // An attribute placeholder: present, holding `/`, empty, absent.
        Case(
            rules: deniesOwnFolders, subject: "bob", resource: "tenants/t1/x", attributes: ["tenant": "t1"],
            expected: .init(effect: .deny, line: 5)),
        Case(
            rules: deniesOwnFolders, subject: "bob", resource: "tenants/t1/x/y",
            attributes: ["tenant": "t1/x"],
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: deniesOwnFolders, subject: "bob", resource: "tenants//x", attributes: ["tenant": ""],
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: deniesOwnFolders, subject: "bob", resource: "tenants/../x", attributes: ["tenant": ".."],
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: deniesOwnFolders, subject: "bob", resource: "tenants/./x", attributes: ["tenant": "."],
            expected: .init(effect: .allow, line: 2)),
        Case(
            rules: deniesOwnFolders, subject: "bob", resource: "tenants/t1/x",
            expected: .init(effect: .allow, line: 2)),
    ])
    func aPlaceholderWithoutAUsableValueDisablesADenyToo(_ example: Case) throws {
        try Self.check(example)
    }

    /// `group g1 @g2`, …, `group g8 alice`, in the given order of lines, and a rule for `@g1`.
    static func chain(reversed: Bool) -> String {
        var lines = (1...7).map { "group g\($0) @g\($0 + 1)" } + ["group g8 alice"]
        if reversed { lines.reverse() }
        return (["allow @g1 read x"] + lines + ["deny @g8 read secret"]).joined(separator: "\n")
    }

    @Test(arguments: [false, true])
    func membershipIsTransitiveEightGroupsDeep(reversed: Bool) throws {
        let rules = Self.chain(reversed: reversed)
        try Self.check(
            Case(rules: rules, subject: "alice", resource: "x", expected: .init(effect: .allow, line: 1)))
        try Self.check(Case(rules: rules, subject: "bob", resource: "x", expected: nil))
        try Self.check(Case(rules: rules, subject: "g8", resource: "x", expected: nil))
        try Self.check(
            Case(rules: rules, subject: "alice", resource: "secret", expected: .init(effect: .deny, line: 10))
        )
    }

    @Test func aGroupGivenOnSeveralLinesHasEveryMember() throws {
        let rules = """
            allow @staff read x
            group staff alice
            # more staff
            group staff bob @ops
            group ops   carol
            """
        for subject in ["alice", "bob", "carol"] {
            try Self.check(
                Case(rules: rules, subject: subject, resource: "x", expected: .init(effect: .allow, line: 1)))
        }
        try Self.check(Case(rules: rules, subject: "dave", resource: "x", expected: nil))
    }

    static let firstLines = """
        allow alice read docs/*
        allow *     read docs/a
        deny  @team read docs/*
        deny  alice *    docs/a
        allow alice read docs/a if device=managed
        group team  alice
        """

    @Test(arguments: [
        // The first matching deny, even after matching allows.
        Case(
            rules: firstLines, subject: "alice", resource: "docs/a", expected: .init(effect: .deny, line: 3)),
        // Without a deny, the first matching allow.
        Case(rules: firstLines, subject: "bob", resource: "docs/a", expected: .init(effect: .allow, line: 2)),
        Case(
            rules: "allow * read d if device=managed\nallow bob read d\n", subject: "bob", resource: "d",
            attributes: ["device": "managed"], expected: .init(effect: .allow, line: 1)),
        Case(
            rules: "allow * read d if device=managed\nallow bob read d\n", subject: "bob", resource: "d",
            attributes: ["device": "other"], expected: .init(effect: .allow, line: 2)),
    ])
    func theVerdictNamesTheFirstMatchingLineOfTheWinningEffect(_ example: Case) throws {
        try Self.check(example)
    }

    @Test(arguments: [
        // Every condition must hold; a missing or empty attribute never equals a value.
        Case(
            rules: "allow * read d if device=managed tier=gold\n", subject: "bob", resource: "d",
            attributes: ["device": "managed", "tier": "gold"], expected: .init(effect: .allow, line: 1)),
        Case(
            rules: "allow * read d if device=managed tier=gold\n", subject: "bob", resource: "d",
            attributes: ["device": "managed"], expected: nil),
        Case(
            rules: "allow * read d if device=managed tier=gold\n", subject: "bob", resource: "d",
            attributes: ["device": "managed", "tier": ""], expected: nil),
        Case(
            rules: "allow * read d if owner=u-{subject}\n", subject: "bob", resource: "d",
            attributes: ["owner": "u-bob"], expected: .init(effect: .allow, line: 1)),
        Case(
            rules: "allow * read d if owner=u-{subject}\n", subject: "bob", resource: "d",
            attributes: ["owner": "u-bobby"], expected: nil),
        Case(
            rules: "allow * read d if team.name={org-id}\n", subject: "bob", resource: "d",
            attributes: ["team.name": "o1", "org-id": "o1"], expected: .init(effect: .allow, line: 1)),
    ])
    func everyConditionMustHoldExactly(_ example: Case) throws {
        try Self.check(example)
    }

    @Test func rulesPolicyRunsTheEngineOfAFile() async throws {
        let policy = try RulesPolicy(
            text: """
                group  editors  alice bob
                allow  @editors write  docs/*
                allow  *        read   users/{subject}/*
                deny   *        *      exports/* if device=unmanaged
                """, name: "documents")
        #expect(
            try await policy.evaluate(AccessRequest(subject: "bob", action: "write", resource: "docs/a"))
                == .allow)
        #expect(
            try await policy.evaluate(AccessRequest(subject: "carol", action: "write", resource: "docs/a"))
                == .deny(reason: "no rule in documents allows"))
        #expect(
            try await policy.evaluate(
                AccessRequest(subject: "bob", resource: "exports/a", attributes: ["device": "unmanaged"]))
                == .deny(reason: "documents:4 denies"))
    }
}
