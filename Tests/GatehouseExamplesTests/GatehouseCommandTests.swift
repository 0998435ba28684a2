import Foundation
import GatehouseTestSupport
import Testing

@Suite("gatehouse command")
struct GatehouseCommandTests {
    static let config = "Examples/demo/gatehouse.json"
    static let monday = "2026-11-30T10:00:00Z"
    static let saturday = "2026-11-28T10:00:00Z"

    @Test func theDemoTellsEveryStepAndExitsZero() async throws {
        let run = try await Examples.gatehouse()
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        // A long command is wrapped with a backslash; read it as one line, as a shell would.
        let text = run.stdout.replacingOccurrences(of: #" \\\n\s+"#, with: " ", options: .regularExpression)
        for line in [
            // The binary is not on PATH here: the demo prints the path it was started by
            // (.build/… or, under the thread sanitizer, .build-tsan/…).
            "$ .build",
            "/gatehouse load --config Examples/demo/gatehouse.json --subject alice",
            "avatar of alice: a fox in a red scarf",
            "denied by team: subject \"mallory\" is not in the allow-list",
            "denied by office-hours: outside Mon–Fri 08:00–20:00 Europe/Berlin; it is Sat 11:00 there",
            "allowed by rules (avatars.rules:3): bob read \"avatars/alice.txt\" (service avatars)",
            "denied by rules: no rule in avatars.rules allows",
            "denied by (identity): the resource has a \"..\" path component",
            "Every step behaved as told.",
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
        #expect(run.stdout.components(separatedBy: "exit status 3").count - 1 == 4)
    }

    @Test func theDemoNeverChangesTheBundledRulesFile() async throws {
        let rules = Examples.packageRoot.appendingPathComponent("Examples/demo/avatars.rules")
        let before = try Data(contentsOf: rules)
        _ = try await Examples.command("demo")
        #expect(try Data(contentsOf: rules) == before)
    }

    @Test func checkAllowedPrintsToStdoutAndExitsZero() async throws {
        let run = try await Examples.gatehouse(
            "check", "--config", Self.config, "--subject", "alice", "--at", Self.monday, "avatars/alice.txt")
        #expect(run.status == 0)
        #expect(
            run.stdout
                == "allowed by rules (avatars.rules:2): alice read \"avatars/alice.txt\" (service avatars)\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func checkDeniedNamesGateAndReasonOnStderrAndExitsThree() async throws {
        let run = try await Examples.gatehouse(
            "check", "--config", Self.config, "--subject", "mallory", "--at", Self.monday, "avatars/alice.txt"
        )
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr == """
                denied by team: subject "mallory" is not in the allow-list
                  request: mallory read "avatars/alice.txt" (service avatars)

                """)
    }

    @Test func atEvaluatesAsIfTheClockReadThatInstant() async throws {
        let weekend = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", Self.saturday, "avatars/alice.txt"
        )
        #expect(weekend.status == 3)
        #expect(weekend.stderr.contains("office-hours"))
        let offset = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", "2026-11-30T11:00:00+01:00",
            "avatars/alice.txt")
        #expect(offset.status == 0)
    }

    @Test func checkJSONPrintsOneObject() async throws {
        let run = try await Examples.command(
            "check", "--json", "--config", Self.config, "--subject", "mallory", "--attr", "device=phone",
            "--at", Self.monday,
            "avatars/alice.txt")
        #expect(run.status == 3)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["allowed"] as? Bool == false)
        #expect(object?["gatekeeper"] as? String == "team")
        #expect(object?["failed"] as? Bool == false)
        let request = object?["request"] as? [String: Any]
        #expect(request?["subject"] as? String == "mallory")
        #expect((request?["attributes"] as? [String: String]) == ["device": "phone"])
    }

    @Test func loadWritesTheResourceToStdoutOrAFile() async throws {
        let run = try await Examples.gatehouse(
            "load", "--config", Self.config, "--subject", "alice", "--at", Self.monday, "avatars/alice.txt")
        #expect(run.status == 0)
        #expect(run.stdout == "avatar of alice: a fox in a red scarf\n")
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let output = folder.file("out.txt")
        let toFile = try await Examples.gatehouse(
            "load", "--config", Self.config, "--subject", "bob", "--at", Self.monday, "--output", output.path,
            "avatars/bob.txt")
        #expect(toFile.status == 0)
        #expect(toFile.stdout.hasPrefix("loaded 34 bytes to \(output.path)"))
        #expect(try String(contentsOf: output, encoding: .utf8) == "avatar of bob: a heron on one leg\n")
    }

    @Test func aDeniedLoadWritesNothing() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let output = folder.file("out.txt")
        let run = try await Examples.command(
            "load", "--config", Self.config, "--subject", "mallory", "--at", Self.monday, "--output",
            output.path, "avatars/bob.txt")
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aHostilePathIsDeniedBeforeAnyGateExitingThree() async throws {
        let run = try await Examples.command(
            "load", "--config", Self.config, "--subject", "alice", "--at", Self.monday,
            "avatars/alice/../../../gatehouse.json")
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "denied by (identity): the resource has a \"..\" path component, which would name a "
                + "resource outside its folder\n"
                + "  request: alice read \"avatars/alice/../../../gatehouse.json\" (service avatars)\n")
    }

    @Test func aMissingResourceIsALoaderErrorExitingOne() async throws {
        let run = try await Examples.command(
            "load", "--config", Self.config, "--subject", "bob", "--at", Self.monday, "avatars/nobody.txt")
        #expect(run.status == 1)
        #expect(run.stderr.contains("avatars/nobody.txt"))
    }

    @Test func validateReportsValidAndInvalidFiles() async throws {
        let valid = try await Examples.command("validate", Self.config)
        #expect(valid.status == 0)
        #expect(valid.stdout == "\(Self.config): valid; 1 service, 4 rules, 0 groups: avatars\n")

        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let bad = folder.file("bad.json")
        try Data(
            #"{ "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [ { "type": "timeWindow", "timeZone": "UTC", "days": ["mon"], "from": "9am", "to": "17:00" }, { "type": "allowList", "subjcts": ["a"] } ] } } }"#
                .utf8
        ).write(to: bad)
        let invalid = try await Examples.command("validate", bad.path)
        #expect(invalid.status == 1)
        #expect(
            invalid.stderr.contains(
                "\(bad.path): services.s.gatekeepers[0].from: expected HH:mm, found \"9am\""))
        #expect(invalid.stderr.contains("\(bad.path): services.s.gatekeepers[1].subjcts: unknown key"))
        let json = try await Examples.command("validate", "--json", bad.path)
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["valid"] as? Bool == false)
        #expect((object?["errors"] as? [String])?.count == 3)
    }

    @Test func describeDescribesTheChain() async throws {
        let run = try await Examples.command("describe", Self.config)
        #expect(run.status == 0)
        #expect(
            run.stdout.hasPrefix(
                "service \"avatars\": gate → cache → loader\n  gatekeeper 1: team = allowList"))
        #expect(run.stdout.contains("  loader: disk: files under assets"))
    }

    @Test(arguments: ["check", "load", "validate", "describe", "demo"])
    func everySubcommandHasHelp(command: String) async throws {
        let run = try await Examples.command(command, "--help")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("gatehouse \(command) - "))
        let viaHelp = try await Examples.command("help", command)
        #expect(viaHelp.stdout == run.stdout)
    }

    @Test func topLevelHelpListsTheCommands() async throws {
        let run = try await Examples.command("--help")
        #expect(run.status == 0)
        for command in ["check", "load", "validate", "describe"] {
            #expect(run.stdout.contains("gatehouse \(command)"))
        }
        #expect(run.stdout.contains("0 allowed / ok, 1 error, 2 usage, 3 denied"))
    }

    @Test(arguments: [
        (["frobnicate"], "error: unknown command 'frobnicate'"),
        (["chek", "x"], "error: unknown command 'chek'"),
        (["check", "avatars/alice.txt"], "error: missing --config FILE"),
        (["check", "--config", config], "error: missing KEY for 'check'"),
        (
            ["check", "--config", config, "a", "b"],
            "error: unexpected argument 'b' for 'check'; it takes only KEY"
        ),
        (
            ["check", "--config", config, "--subjct", "alice", "a"],
            "error: unknown option '--subjct' for 'check' (did you mean '--subject'?)"
        ),
        (["check", "--config"], "error: option '--config' needs a value: --config FILE"),
        (
            ["check", "--config", config, "--attr", "novalue", "a"],
            "error: --attr expects KEY=VALUE, found 'novalue'"
        ),
        (["check", "--config", config, "--at", "yesterday", "a"], "error: --at expects an ISO-8601 instant"),
        (
            ["check", "--config", config, "--service", "nope", "a"],
            "error: no service \"nope\"; the configuration has \"avatars\""
        ),
        (
            ["check", "--config", config, "--subject", "a", "--subject", "b", "k"],
            "error: option '--subject' was given twice"
        ),
        (
            ["check", "--config", config, "--json=yes", "k"],
            "error: option '--json' is a flag and takes no value"
        ),
        (["validate"], "error: missing FILE for 'validate'"),
        (["describe", "a.json", "b.json"], "error: unexpected argument 'b.json' for 'describe'"),
        (["demo", "extra"], "error: unexpected argument 'extra' for 'demo'; it takes no arguments"),
        (["load", "--config", config, "-x", "k"], "error: unknown option '-x' for 'load'"),
    ])
    func badUsageSaysWhatWasExpectedAndExitsTwo(arguments: [String], message: String) async throws {
        let run = try await Examples.command(arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(message), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Run 'gatehouse help'"))
    }

    @Test func aBrokenConfigurationExitsOneNamingFileAndPlace() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write("broken.json", "{\n  \"services\": [\n")
        let run = try await Examples.command("check", "--config", file.path, "k")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("\(file.path): line 3, column 1: invalid JSON"))
    }

    @Test func theCommandWorksFromAnotherWorkingDirectory() async throws {
        let config = Examples.packageRoot.appendingPathComponent(Self.config).path
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.cleanUp() }
        let run = try await Examples.gatehouse(
            "load", "--config", config, "--subject", "carol", "--at", Self.monday, "avatars/carol.txt",
            in: elsewhere.url)
        #expect(run.status == 0)
        #expect(run.stdout == "avatar of carol: a hedgehog with glasses\n")
    }

    @Test func aDenyRuleWinsOverAnAllowInTheRulesFile() async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "carol", "--at", Self.monday,
            "avatars/carol/private-draft.txt")
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("denied by rules: avatars.rules:5 denies"))
    }
}
