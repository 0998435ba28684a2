import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse test CASES.json` decides every case of a table as `check` does and says which
/// hold; `gatehouse validate` reads every rules file a configuration names.
@Suite("gatehouse test and validate of rules files")
struct GatehouseTestCommandTests {
    static let exampleTable = "Examples/demo/gatehouse.tests.json"

    /// A temporary copy of the demo folder (configuration, rules file, avatars), removed at the end.
    struct DemoCopy {
        let directory: TemporaryDirectory
        /// The copy, inside ``directory``.
        var folder: URL { directory.file("demo") }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.copyItem(
                at: Examples.packageRoot.appendingPathComponent("Examples/demo"), to: directory.file("demo"))
        }

        /// Writes `text` to `name` in the copy and returns its path.
        @discardableResult
        func write(_ text: String, to name: String) throws -> String {
            let file = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            return file.path
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func remove() { directory.cleanUp() }
    }

    /// A table for the demo configuration with the given cases (JSON array elements).
    static func table(_ cases: String...) -> String {
        #"{ "config": "gatehouse.json", "cases": ["# + cases.joined(separator: ",\n") + "] }"
    }

    static let aliceAllowed =
        #"{ "name": "alice reads her avatar", "subject": "alice", "resource": "avatars/alice.txt", "at": "2026-11-30T10:00:00Z", "expect": "allow" }"#

    // MARK: the example table

    @Test func theExampleTablePassesWithASummaryLine() async throws {
        let run = try await Examples.command("test", Self.exampleTable)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.last == "12 passed, 0 failed")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("pass  ") })
        #expect(lines.contains("pass  mallory is not on the team"))
    }

    @Test func theExampleTableCoversAllowsAndADenyByEveryGate() throws {
        let data = try Data(contentsOf: Examples.packageRoot.appendingPathComponent(Self.exampleTable))
        let table = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let cases = table?["cases"] as? [[String: Any]] ?? []
        #expect(cases.contains { $0["expect"] as? String == "allow" })
        let denyingGates = Set(
            cases.filter { $0["expect"] as? String == "deny" }.compactMap { $0["gatekeeper"] as? String })
        #expect(denyingGates.isSuperset(of: ["team", "office-hours", "rules", "(identity)"]))
        #expect(
            cases.allSatisfy { $0["at"] != nil }, "every case pins its instant: the demo has a time window")
    }

    @Test func theExampleTableAsJSONIsOneObjectWithEveryCase() async throws {
        let run = try await Examples.command("test", "--json", Self.exampleTable)
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 1)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["command"] as? String == "test")
        #expect(object?["passed"] as? Int == 12)
        #expect(object?["failed"] as? Int == 0)
        let cases = object?["cases"] as? [[String: Any]]
        #expect(cases?.count == 12)
        #expect(cases?.first?["name"] as? String == "alice reads her avatar")
        #expect(cases?.first?["gatekeeper"] as? String == "rules")
    }

    // MARK: failing cases

    @Test func aTableWithOneWrongExpectationExitsOneNamingThatCase() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let table = try demo.write(
            Self.table(
                Self.aliceAllowed,
                #"{ "name": "bob reads alice's avatar", "subject": "bob", "resource": "avatars/alice.txt", "at": "2026-11-30T10:00:00Z", "expect": "deny" }"#
            ), to: "wrong.tests.json")
        let run = try await Examples.command("test", table)
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                pass  alice reads her avatar
                FAIL  bob reads alice's avatar: expected deny, got allow by gatekeeper "rules"
                      request: bob read "avatars/alice.txt" (service avatars, at 2026-11-30T10:00:00Z)
                1 passed, 1 failed

                """)
    }

    @Test func aDenyByAnotherGateThanTheNamedOneFailsSayingWhichGateAndWhy() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let table = try demo.write(
            Self.table(
                #"{ "name": "mallory is refused by the rules", "subject": "mallory", "resource": "avatars/alice.txt", "at": "2026-11-30T10:00:00Z", "expect": "deny", "gate": "rules" }"#
            ), to: "gate.tests.json")
        let run = try await Examples.command("test", table)
        #expect(run.status == 1)
        #expect(
            run.stdout.hasPrefix(
                #"FAIL  mallory is refused by the rules: expected deny by gatekeeper "rules", got deny by gatekeeper "team": subject "mallory" is not in the allow-list"#
            ))
        #expect(run.stdout.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func aFailingGateFailsADenyCaseRatherThanPassingIt() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        try demo.write("allow alice read\n", to: "avatars.rules")
        let table = try demo.write(
            Self.table(
                #"{ "name": "bob is denied", "subject": "bob", "resource": "avatars/secret.txt", "at": "2026-11-30T10:00:00Z", "expect": "deny" }"#
            ), to: "broken.tests.json")
        let run = try await Examples.command("test", table)
        #expect(run.status == 1)
        #expect(
            run.stdout.hasPrefix(
                #"FAIL  bob is denied: expected deny, got a failure of gatekeeper "rules": avatars.rules:1: "#
            ))
    }

    @Test func eachCaseIsDecidedAtItsOwnInstant() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let table = try demo.write(
            Self.table(
                #"{ "name": "monday", "subject": "alice", "resource": "avatars/alice.txt", "at": "2026-11-30T10:00:00Z", "expect": "allow" }"#,
                #"{ "name": "saturday", "subject": "alice", "resource": "avatars/alice.txt", "at": "2026-11-28T10:00:00Z", "expect": "deny", "gate": "office-hours" }"#,
                #"{ "name": "monday again", "subject": "alice", "resource": "avatars/alice.txt", "at": "2026-11-30T11:00:00+01:00", "expect": "allow" }"#
            ), to: "instants.tests.json")
        let run = try await Examples.command("test", table)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.hasSuffix("3 passed, 0 failed\n"))
    }

    @Test func echoedNamesAndReasonsAreEscaped() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let table = try demo.write(
            Self.table(
                #"{ "name": "x\npass  forged", "subject": "mallory", "resource": "avatars/alice.txt", "at": "2026-11-30T10:00:00Z", "expect": "allow" }"#
            ), to: "escape.tests.json")
        let run = try await Examples.command("test", table)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix(#"FAIL  x\npass  forged: expected allow"#))
        #expect(!run.stdout.split(separator: "\n").contains { $0.hasPrefix("pass") })
    }

    // MARK: malformed tables

    @Test(arguments: [
        (
            #"{ "name": "n", "resource": "r", "expect": "permit" }"#,
            #"cases[0].expect: expected "allow" or "deny", found "permit""#
        ),
        (#"{ "resource": "r", "expect": "deny" }"#, "cases[0].name: missing"),
        (#"{ "name": "n", "expect": "deny" }"#, "cases[0].resource: missing"),
        (#"{ "name": "n", "resource": "r" }"#, #"cases[0].expect: missing; expected "allow" or "deny""#),
        (
            #"{ "name": "n", "resource": "r", "expect": "deny", "subjet": "bob" }"#,
            #"cases[0].subjet: unknown key (did you mean "subject"?)"#
        ),
        (
            #"{ "name": "n", "resource": 7, "expect": "deny" }"#,
            "cases[0].resource: expected a string, found a number"
        ),
        (
            #"{ "name": "n", "resource": "r", "expect": "deny", "attributes": { "tenant": 1 } }"#,
            "cases[0].attributes.tenant: expected a string, found a number"
        ),
        (
            #"{ "name": "n", "resource": "r", "expect": "deny", "at": "2026-02-30T10:00:00Z" }"#,
            "cases[0].at: expected an ISO-8601 instant such as 2026-11-30T10:00:00Z or 2026-11-30T11:00:00+01:00, found '2026-02-30T10:00:00Z'; there is no day 30 in 2026-02"
        ),
        (
            #"{ "name": "n", "resource": "r", "expect": "deny", "service": "photos" }"#,
            #"cases[0].service: no service "photos"; the configuration has "avatars""#
        ),
        (#""a case""#, "cases[0]: expected a case (an object), found a string"),
    ])
    func aMalformedCaseExitsTwoNamingThePlace(element: String, problem: String) async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let table = try demo.write(Self.table(Self.aliceAllowed, element), to: "bad.tests.json")
        let run = try await Examples.command("test", table)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        let expected = "\(table): \(problem.replacingOccurrences(of: "cases[0]", with: "cases[1]"))"
        #expect(run.stderr.hasPrefix(expected), "stderr: \(run.stderr)")
    }

    @Test(arguments: [
        (
            #"[]"#,
            #"the table is an array; expected a JSON object such as {"config": "gatehouse.json", "cases": [...]}"#
        ),
        (#"{ "cases": [] }"#, "config: missing"),
        (#"{ "config": "gatehouse.json", "cases": [] }"#, "cases: empty; a table needs at least one case"),
        (#"{ "config": "gatehouse.json", "case": [] }"#, #"case: unknown key (did you mean "cases"?)"#),
        ("{ \"config\": \"gatehouse.json\",\n  \"cases\": [ x ] }", "invalid JSON: line 2, column 14: "),
    ])
    func aMalformedTableExitsTwoNamingThePlace(text: String, problem: String) async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let table = try demo.write(text, to: "bad.tests.json")
        let run = try await Examples.command("test", table)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("\(table): \(problem)"), "stderr: \(run.stderr)")
    }

    @Test func aMalformedTableAsJSONListsEveryProblem() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let table = try demo.write(
            Self.table(#"{ "name": "n", "resource": "r", "expect": "maybe", "gate": 3 }"#),
            to: "bad.tests.json")
        let run = try await Examples.command("test", "--json", table)
        #expect(run.status == 2)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["valid"] as? Bool == false)
        #expect(
            object?["errors"] as? [String] == [
                "cases[0].gate: expected a string, found a number",
                #"cases[0].expect: expected "allow" or "deny", found "maybe""#,
            ])
    }

    @Test func aMissingTableOrConfigurationSaysSo() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        let missingTable = try await Examples.command("test", demo.path("nothing.tests.json"))
        #expect(missingTable.status == 2)
        #expect(
            missingTable.stderr
                == "\(demo.path("nothing.tests.json")): cannot read: No such file or directory\n"
        )

        let table = try demo.write(
            #"{ "config": "elsewhere.json", "cases": [\#(Self.aliceAllowed)] }"#, to: "t.tests.json")
        let missingConfiguration = try await Examples.command("test", table)
        #expect(missingConfiguration.status == 1)
        #expect(missingConfiguration.stderr.hasPrefix("\(demo.path("elsewhere.json")): cannot read"))
    }

    @Test func testNeedsATableAndHasHelp() async throws {
        let missing = try await Examples.command("test")
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: missing CASES for 'test'"))
        let help = try await Examples.command("test", "--help")
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("gatehouse test - "))
        #expect(try await Examples.command("help", "test").stdout == help.stdout)
        #expect(try await Examples.command("--help").stdout.contains("gatehouse test"))
    }

    // MARK: validate reads the rules files

    @Test func validateOfAConfigurationWhoseRulesFileIsMalformedExitsOneNamingFileAndLine() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        try demo.write(
            "# effect subject action resource\nallow alice read avatars/alice*\nallow bob read\n",
            to: "avatars.rules")
        let config = demo.path("gatehouse.json")
        let run = try await Examples.command("validate", config)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "\(config): services.avatars.gatekeepers[2]: avatars.rules:3: expected 4 fields (effect subject action resource), found 3\n"
        )
        let json = try await Examples.command("validate", "--json", config)
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["valid"] as? Bool == false)
        #expect(
            (object?["errors"] as? [String])?.first?.hasPrefix(
                "services.avatars.gatekeepers[2]: avatars.rules:3: ") == true)
    }

    @Test func validateOfAConfigurationWhoseRulesFileIsMissingExitsOne() async throws {
        let demo = try DemoCopy()
        defer { demo.remove() }
        try FileManager.default.removeItem(atPath: demo.path("avatars.rules"))
        let config = demo.path("gatehouse.json")
        let run = try await Examples.command("validate", config)
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix("\(config): services.avatars.gatekeepers[2]: avatars.rules: cannot read"))
    }

    @Test func validateOfTheDemoConfigurationStillSaysValid() async throws {
        let run = try await Examples.command("validate", "Examples/demo/gatehouse.json")
        #expect(run.status == 0)
        #expect(run.stdout == "Examples/demo/gatehouse.json: valid; 1 service, 4 rules, 0 groups: avatars\n")
    }
}
