import GatehouseCore
import GatehousePolicies
import Testing

/// Malformed rules files (groups, placeholders, conditions): each is malformed at a stated line, with the words the
/// format's definition gives (the rest of a message is the engine's own).
@Suite("Rules with groups, placeholders and conditions: malformed files")
struct RulesMalformedFileTests {
    /// A text that is malformed at one line.
    struct Malformed: CustomTestStringConvertible {
        var text: String
        /// The lines the error may name (one, unless the definition allows any of several).
        var lines: Set<Int>
        /// Text the message must hold, each item one of several accepted spellings.
        var words: [[String]] = []
        /// Text the message must not hold.
        var absent: [String] = []
        var testDescription: String { text.debugDescription }

        init(_ text: String, line: Int, words: [String] = [], absent: [String] = []) {
            self.text = text
            self.lines = [line]
            self.words = words.map { [$0] }
            self.absent = absent
        }

        init(_ text: String, lines: Set<Int>, anyOf words: [[String]]) {
            self.text = text
            self.lines = lines
            self.words = words
        }
    }

    /// Checks the engine's error, and that the reference model also calls the text malformed.
    static func check(_ example: Malformed, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: ReferenceRules.Malformed.self, "the reference", sourceLocation: sourceLocation) {
            try ReferenceRules(parsing: example.text)
        }
        guard let error = rulesParseError(example.text) else {
            Issue.record("parsed without an error", sourceLocation: sourceLocation)
            return
        }
        #expect(error.kind == .malformed, "\(error)", sourceLocation: sourceLocation)
        #expect(error.file == "r.rules", sourceLocation: sourceLocation)
        #expect(
            error.line.map(example.lines.contains) == true, "line \(String(describing: error.line))",
            sourceLocation: sourceLocation)
        if let line = error.line {
            #expect(
                error.errorDescription == "r.rules:\(line): \(error.message)", sourceLocation: sourceLocation)
        }
        for spellings in example.words {
            #expect(
                spellings.contains(where: error.message.contains), "\(error.message) lacks \(spellings)",
                sourceLocation: sourceLocation)
        }
        for word in example.absent {
            #expect(
                !error.message.contains(word), "\(error.message) holds \(word)",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: - Groups

    @Test(arguments: [
        Malformed(
            "allow @editors read x\ngroup editors @admins\ngroup admins @editors\n", lines: [2, 3],
            anyOf: [
                ["group cycle: editors -> admins -> editors", "group cycle: admins -> editors -> admins"]
            ]),
        Malformed("group editors @editors alice\n", lines: [1], anyOf: [["group cycle: editors -> editors"]]),
        Malformed(
            "group a @b\ngroup b @c\ngroup c @a\ngroup d @a\nallow @d read x\n", lines: [1, 2, 3],
            anyOf: [
                [
                    "group cycle: a -> b -> c -> a", "group cycle: b -> c -> a -> b",
                    "group cycle: c -> a -> b -> c",
                ]
            ]),
        // A cycle no rule uses is still malformed.
        Malformed(
            "allow * read x\ngroup x1 alice @x2\n# between\ngroup x2 @x1\n", lines: [2, 4],
            anyOf: [["group cycle: x1 -> x2 -> x1", "group cycle: x2 -> x1 -> x2"]]),
    ])
    func aGroupCycleIsMalformedAtALineOfTheCycle(_ example: Malformed) {
        Self.check(example)
    }

    @Test(arguments: [
        Malformed(
            "group editors alice\nallow @edtors read x\n", line: 2,
            words: [#"undefined group "edtors"; did you mean "editors"?"#]),
        // Before the group's line, and in a member.
        Malformed(
            "allow @editor read x\ngroup editors alice\n", line: 1,
            words: [#"undefined group "editor"; did you mean "editors"?"#]),
        Malformed(
            "group admins @edtiors\ngroup editors alice\nallow @admins read x\n", line: 1,
            words: [#"undefined group "edtiors"; did you mean "editors"?"#]),
        // A short name too: within two edits, however few characters it has.
        Malformed(
            "group ab alice\nallow @a read x\n", line: 2, words: [#"undefined group "a"; did you mean "ab"?"#]
        ),
        // Further than two edits: no suggestion.
        Malformed(
            "group editors alice\nallow @writers read x\n", line: 2, words: [#"undefined group "writers""#],
            absent: ["did you mean"]),
        Malformed(
            "allow * read x\ndeny @nobody read x\n", line: 2, words: [#"undefined group "nobody""#],
            absent: ["did you mean"]),
    ])
    func anUndefinedGroupIsMalformedWithADidYouMean(_ example: Malformed) {
        Self.check(example)
    }

    @Test(arguments: [
        // Members are exact names.
        Malformed("group editors alice al*\n", line: 1),
        Malformed("allow * read x\ngroup editors *\n", line: 2),
        Malformed("group editors {subject}\n", line: 1),
        Malformed("group editors al@ice\n", line: 1),
        Malformed("group editors @ad*\ngroup admins carol\n", line: 1),
        // A group needs a member and a name without `*`, `@`, `{`, `}` or `=`.
        Malformed("allow * read x\ngroup editors\n", line: 2),
        Malformed("group edi*tors alice\n", line: 1),
        Malformed("group @editors alice\n", line: 1),
        Malformed("group {editors} alice\n", line: 1),
        Malformed("group a=b alice\n", line: 1),
        // A group subject is a name, not a pattern.
        Malformed("group editors alice\nallow @edit* read x\n", line: 2),
        Malformed("group editors alice\nallow @ read x\n", line: 2),
    ])
    func aBadGroupLineOrGroupSubjectIsMalformed(_ example: Malformed) {
        Self.check(example)
    }

    @Test func aGroupLineAfterTheEndLineIsMalformed() {
        Self.check(Malformed("allow @editors read x\ngroup editors bob\nend\ngroup editors alice\n", line: 4))
        Self.check(Malformed("allow * read x\nend\n# fine\n\ngroup editors alice\n", line: 5))
    }

    // MARK: - Braces

    @Test(arguments: [
        Malformed("allow {subject} read x\n", line: 1),
        Malformed("allow * read x\nallow users/{subject} read x\n", line: 2),
        Malformed("allow * {action} x\n", line: 1),
        Malformed("allow al{ read x\n", line: 1),
        Malformed("allow * re}ad x\n", line: 1),
    ])
    func bracesInASubjectOrActionAreMalformed(_ example: Malformed) {
        Self.check(example)
    }

    @Test(arguments: [
        Malformed("allow * read users/{subject\n", line: 1),
        Malformed("allow * read users/subject}\n", line: 1),
        Malformed("allow * read x\nallow * read users/{}/x\n", line: 2),
        Malformed("allow * read users/{{subject}}\n", line: 1),
        Malformed("allow * read users/{sub*ject}\n", line: 1),
        Malformed("allow * read users/{sub/ject}\n", line: 1),
        Malformed("allow * read x if owner={subject\n", line: 1),
        Malformed("allow * read x if owner=subject}\n", line: 1),
    ])
    func aBraceThatFormsNoPlaceholderIsMalformed(_ example: Malformed) {
        Self.check(example)
    }

    // MARK: - Conditions

    @Test(arguments: [
        // `if` with no condition.
        Malformed("allow * read x if\n", line: 1),
        Malformed("allow * read x\ndeny * read x if  \t\n", line: 2),
        // A field after `if` without `=`.
        Malformed("allow * read x if owner\n", line: 1),
        Malformed("allow * read x if owner=bob managed\n", line: 1),
        // An empty key or value.
        Malformed("allow * read x if =bob\n", line: 1),
        Malformed("allow * read x if owner=\n", line: 1),
        Malformed("allow * read x if owner=bob device=\n", line: 1),
        // A fifth field that is not `if`.
        Malformed("allow * read x when owner=bob\n", line: 1),
        Malformed("allow * read x IF owner=bob\n", line: 1),
        Malformed("allow * read x owner=bob\n", line: 1),
        Malformed("allow * read x y\n", line: 1),
    ])
    func aBadIfClauseIsMalformed(_ example: Malformed) {
        Self.check(example)
    }

    @Test(arguments: [
        Malformed("allow * read x if ow*ner=bob\n", line: 1),
        Malformed("allow * read x if {owner}=bob\n", line: 1),
        Malformed("allow * read x if a/b=bob\n", line: 1),
    ])
    func aConditionKeyIsAnAttributeName(_ example: Malformed) {
        Self.check(example)
    }

    // MARK: - What stays valid

    @Test func groupPlaceholderAndConditionFormsParse() throws {
        let text = """
            # groups may come after the rules that use them
            allow  @editors write  docs/*
            group  editors  alice bob @admins
            group  admins   carol
            group  editors  dave
            allow  *        read   users/{subject}/*
            allow  *        read   tenants/{tenant}/{org-id}-{team.name}/*
            allow  *        write  docs/* if owner={subject}
            deny   *        *      exports/* if device=unmanaged tier=*
            allow  *        read   x\tif\tk_1=a*b  k-2=u-{x_1}
            end
            """
        #expect(throws: Never.self) { try ReferenceRules(parsing: text) }
        let rules = try RulesFile.parse(text, fileName: "r.rules", requireEnd: true)
        #expect(
            rules.decide(AccessRequest(subject: "carol", action: "write", resource: "docs/a"))
                == .init(effect: .allow, line: 2))
    }
}
