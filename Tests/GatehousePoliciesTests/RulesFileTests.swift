import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

@Suite("RulesFile")
struct RulesFileTests {
    static let example = """
        # effect  subject  action  resource
        allow     alice    read    avatars/alice/*
        allow     *        read    public/*

        deny      *        *       avatars/*/private-*
        \tallow\tbob\t*\tavatars/bob/*
        """

    static let table: [(subject: String?, action: String, resource: String, verdict: RulesFile.Verdict?)] = [
        ("alice", "read", "avatars/alice/a.png", .init(effect: .allow, line: 2)),
        ("alice", "write", "avatars/alice/a.png", nil),
        ("alice", "read", "avatars/alice/private-a.png", .init(effect: .deny, line: 5)),
        ("bob", "read", "avatars/alice/a.png", nil),
        ("bob", "write", "avatars/bob/a.png", .init(effect: .allow, line: 6)),
        ("bob", "write", "avatars/bob/private-", .init(effect: .deny, line: 5)),
        (nil, "read", "public/index.html", .init(effect: .allow, line: 3)),
        (nil, "read", "avatars/x/private-y", .init(effect: .deny, line: 5)),
        (nil, "read", "avatars/alice/a.png", nil),
        ("carol", "read", "public/", .init(effect: .allow, line: 3)),
        ("carol", "read", "public", nil),
    ]

    @Test(arguments: table)
    func decidesTheExampleAsTheTableSays(
        subject: String?, action: String, resource: String, verdict: RulesFile.Verdict?
    ) throws {
        let rules = try RulesFile.parse(Self.example, fileName: "avatars.rules")
        #expect(rules.ruleCount == 4)
        #expect(rules.decide(subject: subject, action: action, resource: resource) == verdict)
    }

    @Test func anyMatchingDenyWinsWhereverItStands() throws {
        let rules = try RulesFile.parse(
            "allow * * a\nallow alice read a\ndeny a* * *\ndeny * read a\n", fileName: "r")
        #expect(
            rules.decide(subject: "alice", action: "read", resource: "a") == .init(effect: .deny, line: 3))
        #expect(rules.decide(subject: "bob", action: "read", resource: "a") == .init(effect: .deny, line: 4))
        #expect(
            rules.decide(subject: "bob", action: "write", resource: "a") == .init(effect: .allow, line: 1))
    }

    @Test func onlyTheSubjectPatternStarMatchesARequestWithoutSubject() throws {
        let rules = try RulesFile.parse(
            "allow ** read a\nallow *x read a\nallow \"\" read a\n", fileName: "r")
        #expect(rules.decide(subject: nil, action: "read", resource: "a") == nil)
        #expect(rules.decide(subject: "", action: "read", resource: "a") == .init(effect: .allow, line: 1))
        let star = try RulesFile.parse("allow * read a\n", fileName: "r")
        #expect(star.decide(subject: nil, action: "read", resource: "a") == .init(effect: .allow, line: 1))
    }

    @Test func commentsBlankLinesAndCRLFAreAccepted() throws {
        let rules = try RulesFile.parse(
            "# heading\r\n\r\n   # indented comment\r\n\t \r\nallow alice read x\r\n", fileName: "r")
        #expect(rules.ruleCount == 1)
        #expect(
            rules.decide(subject: "alice", action: "read", resource: "x") == .init(effect: .allow, line: 5))
    }

    @Test func aFileOfCommentsOnlyHasNoRulesAndAllowsNothing() throws {
        let rules = try RulesFile.parse("# no rules on purpose\n", fileName: "r")
        #expect(rules.ruleCount == 0)
        #expect(rules.decide(subject: "a", action: "read", resource: "a") == nil)
    }

    static let malformed: [(text: String, description: String)] = [
        (
            "allow a read x\n\n# c\nallow a read\n",
            "avatars.rules:4: expected 4 fields (effect subject action resource), found 3"
        ),
        (
            "allow a read x # trailing comment\n",
            "avatars.rules:1: a comment after a rule; a comment is a line of its own, starting with \"#\""
        ),
        ("allow\n", "avatars.rules:1: expected 4 fields (effect subject action resource), found 1"),
        (
            "Allow a read x\n",
            "avatars.rules:1: unknown effect \"Allow\"; expected allow, deny or group; did you mean \"allow\"?"
        ),
        (
            "allow a read x\npermit a read x",
            "avatars.rules:2: unknown effect \"permit\"; expected allow, deny or group"
        ),
    ]

    @Test(arguments: malformed)
    func aMalformedLineIsAnErrorNamingFileAndLine(text: String, description: String) {
        #expect {
            try RulesFile.parse(text, fileName: "avatars.rules")
        } throws: { error in
            let error = error as? RulesFileError
            return error?.kind == .malformed && error?.errorDescription == description
        }
    }

    @Test func invalidUTF8IsAnErrorNamingTheLine() {
        let bytes = Array("allow a read x\n# fine: é\n".utf8) + [0x61, 0xFF, 0x0A]
        #expect(
            throws: RulesFileError(
                file: "avatars.rules", line: 3, kind: .notUTF8,
                message: "not valid UTF-8; save the file as UTF-8")
        ) {
            try RulesFile.parse(bytes, fileName: "avatars.rules")
        }
        #expect(throws: RulesFileError.self) {
            try RulesFile.parse(Array("allow a read ".utf8) + [0xC3], fileName: "r")  // cut-off sequence
        }
    }

    @Test func agreesWithALinearScanOnRandomFiles() throws {
        var random = SplitMix64(seed: 0x0e1e_5f11)
        var outcomes: [String: Int] = [:]
        for _ in 0..<60 {
            var lines: [String] = []
            var reference: [ReferenceRule] = []
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0: lines.append("# comment")
                case 1: lines.append("")
                default:
                    let rule = ReferenceRule(
                        effect: Int.random(in: 0..<8, using: &random) == 0 ? .deny : .allow,
                        subject: Bool.random(using: &random)
                            ? "*" : random.string(from: "ab*", maxLength: 2).nonEmpty,
                        action: Bool.random(using: &random)
                            ? "*" : random.string(from: "rw", maxLength: 1).nonEmpty,
                        resource: random.string(from: "ab/*", maxLength: 5).nonEmpty, line: lines.count + 1)
                    let separator = Bool.random(using: &random) ? " " : "\t "
                    lines.append(
                        [
                            rule.effect == .deny ? "deny" : "allow", rule.subject, rule.action,
                            rule.resource,
                        ]
                        .joined(separator: separator))
                    reference.append(rule)
                }
            }
            let rules = try RulesFile.parse(lines.joined(separator: "\n"), fileName: "r")
            #expect(rules.ruleCount == reference.count)
            for _ in 0..<50 {
                let subject: String? =
                    Int.random(in: 0..<5, using: &random) == 0 ? nil : random.string(from: "ab", maxLength: 2)
                let action = random.string(from: "rw", maxLength: 1).nonEmpty
                let resource = random.string(from: "ab/", maxLength: 6)
                let expected = referenceDecide(
                    reference, subject: subject, action: action, resource: resource)
                #expect(
                    rules.decide(subject: subject, action: action, resource: resource) == expected,
                    "\(subject ?? "(none)") \(action) \(resource)")
                outcomes["\(String(describing: expected?.effect))", default: 0] += 1
            }
        }
        // Allow, deny and no-rule outcomes all occur often enough to mean something.
        #expect(outcomes.count == 3 && outcomes.values.allSatisfy { $0 > 200 }, "\(outcomes)")
    }

    @Test func twentyThousandRulesDecideByTheirIndex() throws {
        var text = "deny * * avatars/*/private-*\n"
        for user in 0..<20_000 {
            text += "allow user\(user) read avatars/user\(user)/*\n"
        }
        let rules = try RulesFile.parse(text, fileName: "r")
        #expect(rules.ruleCount == 20_001)
        #expect(
            rules.decide(subject: "user1234", action: "read", resource: "avatars/user1234/a.png")
                == .init(effect: .allow, line: 1236))
        #expect(rules.decide(subject: "user1234", action: "read", resource: "avatars/user1235/a.png") == nil)
        #expect(
            rules.decide(subject: "user1234", action: "read", resource: "avatars/user1234/private-a")
                == .init(effect: .deny, line: 1))
    }
    @Test func aRequestMatchingMoreThanSixteenPatternsOfAFieldIsDecidedByAllOfThem() throws {
        // A decision keeps 16 matching patterns per field on the stack; these requests match more.
        let name = "alice-smith-jones"
        let resource = "avatars/alice/photo.png"
        let subjects =
            (0...name.count).map { String(name.prefix($0)) + "*" }
            + (1...name.count).map { "*" + name.suffix($0) }
        let resources =
            (0...12).map { String(resource.prefix($0)) + "*" } + (1...12).map { "*" + resource.suffix($0) }
        var lines: [String] = []
        for (index, subject) in subjects.enumerated() {
            lines.append("allow \(subject) read \(resources[index % resources.count])")
        }
        for (index, resource) in resources.enumerated() {
            lines.append(
                "\(index % 7 == 6 ? "deny" : "allow") \(subjects[index % subjects.count]) * \(resource)")
        }
        let rules = try RulesFile.parse(lines.joined(separator: "\n"), fileName: "r")
        let reference = Self.referenceRules(lines)
        for subject in [name, "alice", name + "x", "x" + name, "zz", nil] {
            for action in ["read", "write"] {
                for request in [resource, "avatars/bob/photo.png", "x", ""] {
                    #expect(
                        rules.decide(subject: subject, action: action, resource: request)
                            == referenceDecide(reference, subject: subject, action: action, resource: request),
                        "\(subject ?? "(none)") \(action) \(request)")
                }
            }
        }
        #expect(rules.decide(subject: name, action: "read", resource: resource) != nil)
    }

    @Test func aResourcePatternSharedByManyRulesIsDecidedByTheMatchingPairs() throws {
        // More rules for one resource pattern than matching (subject, action) pairs: the decision
        // looks the pairs up instead of checking each rule.
        var lines = (0..<40).map { "allow user-\($0) read *" }
        lines += ["deny user-7 read *", "allow * write docs/*", "deny user-3* * *", "allow user-1* * docs/*"]
        let rules = try RulesFile.parse(lines.joined(separator: "\n"), fileName: "r")
        let reference = Self.referenceRules(lines)
        var outcomes: Set<String> = []
        for user in 0..<45 {
            for action in ["read", "write"] {
                for resource in ["a", "docs/x"] {
                    let verdict = rules.decide(subject: "user-\(user)", action: action, resource: resource)
                    #expect(
                        verdict
                            == referenceDecide(
                                reference, subject: "user-\(user)", action: action, resource: resource),
                        "user-\(user) \(action) \(resource)")
                    outcomes.insert(String(describing: verdict?.effect))
                }
            }
        }
        #expect(outcomes.count == 3)
    }

    /// The rules of lines holding exactly four space-separated fields each.
    static func referenceRules(_ lines: [String]) -> [ReferenceRule] {
        lines.enumerated().map { index, line in
            let fields = line.split(separator: " ").map(String.init)
            return ReferenceRule(
                effect: fields[0] == "deny" ? .deny : .allow, subject: fields[1], action: fields[2],
                resource: fields[3], line: index + 1)
        }
    }
}

/// One rule as the reference scan sees it.
struct ReferenceRule {
    var effect: RulesFile.Effect
    var subject: String
    var action: String
    var resource: String
    var line: Int
}

/// The reference decision: scan every rule; the first matching deny, else the first matching
/// allow, else nil.
func referenceDecide(_ rules: [ReferenceRule], subject: String?, action: String, resource: String)
    -> RulesFile.Verdict?
{
    let matching = rules.filter { rule in
        let subjectMatches = subject.map { referenceGlobMatch(rule.subject, $0) } ?? (rule.subject == "*")
        return subjectMatches && referenceGlobMatch(rule.action, action)
            && referenceGlobMatch(rule.resource, resource)
    }
    if let deny = matching.first(where: { $0.effect == .deny }) {
        return RulesFile.Verdict(effect: .deny, line: deny.line)
    }
    if let allow = matching.first(where: { $0.effect == .allow }) {
        return RulesFile.Verdict(effect: .allow, line: allow.line)
    }
    return nil
}

extension String {
    /// The string, or `"*"` when empty: a rules file field cannot be empty.
    var nonEmpty: String { isEmpty ? "*" : self }
}

/// What a later reader of the parsed rules (a plan of what they allow) gets: each rule as
/// written, in file order, and every group of a subject.
@Suite("RulesFile: the rules as written")
struct RulesAsWrittenTests {
    @Test func everyRuleIsListedAsWrittenInFileOrder() throws {
        let rules = try RulesFile.parse(
            """
            group editors alice @admins
            group admins root
            deny * * exports/* if device=unmanaged owner={subject}
            allow @editors write docs/*
            allow user-* read users/{subject}/*
            allow bob read cafe\u{301}.txt
            """, fileName: "plan.rules")
        let listed = rules.rules
        #expect(listed.map(\.line) == [3, 4, 5, 6])
        #expect(listed.map(\.effect) == [.deny, .allow, .allow, .allow])
        #expect(listed.map(\.subject) == ["*", "@editors", "user-*", "bob"])
        #expect(listed.map(\.action) == ["*", "write", "read", "read"])
        #expect(listed.map(\.resource) == ["exports/*", "docs/*", "users/{subject}/*", "caf\u{e9}.txt"])
        #expect(listed[0].conditions.map(\.name) == ["device", "owner"])
        #expect(listed[0].conditions.map(\.value) == ["unmanaged", "{subject}"])
        #expect(listed[1].conditions.isEmpty)
        #expect(listed.map { Array($0.resource.utf8) }[3] == Array("caf\u{e9}.txt".utf8))
    }

    @Test func aSubjectsGroupsIncludeTheGroupsHoldingItsGroups() throws {
        let rules = try RulesFile.parse(
            "group editors alice @admins\ngroup admins root\ngroup all @editors\nallow @all read *\n",
            fileName: "groups.rules")
        #expect(rules.groups(of: "root") == ["admins", "editors", "all"])
        #expect(rules.groups(of: "alice") == ["editors", "all"])
        #expect(rules.groups(of: "nobody").isEmpty)
        #expect(rules.groups(of: "admins").isEmpty)
    }
}
