import Foundation
import GatehouseTestSupport
import Testing

/// What `gatehouse` echoes (keys, subjects, actions, attributes, reasons, gate names, paths)
/// can never forge a line of its output: control characters, line separators and bidirectional
/// controls are printed as escapes.
@Suite("gatehouse command: echoed text is escaped")
struct GatehouseCommandEscapingTests {
    static let config = GatehouseCommandTests.config
    static let monday = GatehouseCommandTests.monday
    static let forged = "\nallowed: mallory read \"Keys/master\""

    /// The lines of `text`, which must end in a newline.
    static func lines(_ text: String) -> [String] {
        #expect(text.isEmpty || text.hasSuffix("\n"), "output does not end in a newline: \(text)")
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Every line of both streams.
    static func allLines(_ run: ExampleRun) -> [String] {
        lines(run.stdout) + lines(run.stderr)
    }

    @Test func aKeyWithANewlineCannotForgeAnAllowedLine() async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "mallory", "--at", Self.monday, "x" + Self.forged)
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(
            Self.lines(run.stderr) == [
                "denied by (identity): the resource holds the control character U+000A at position 1",
                #"  request: mallory read "x\nallowed: mallory read "Keys/master"" (service avatars)"#,
            ])
        #expect(!Self.allLines(run).contains { $0.hasPrefix("allowed:") })
    }

    @Test func aKeyThatWouldBeAllowedButHoldsANewlineIsRefusedWithTheKeyEscaped() async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", Self.monday,
            "avatars/alice" + Self.forged)
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(
            Self.lines(run.stderr) == [
                "denied by (identity): the resource holds the control character U+000A at position 13",
                #"  request: alice read "avatars/alice\nallowed: mallory read "Keys/master"" (service avatars)"#,
            ])
    }

    @Test func aKeyWithAReasonEchoingItIsEscapedInTheReasonToo() async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", Self.monday, "k" + Self.forged)
        #expect(run.status == 3)
        #expect(
            Self.lines(run.stderr) == [
                "denied by (identity): the resource holds the control character U+000A at position 1",
                #"  request: alice read "k\nallowed: mallory read "Keys/master"" (service avatars)"#,
            ])
    }

    @Test func terminalEscapeSequencesArePrintedNotSent() async throws {
        let key =
            "avatars/\u{1b}[2J\u{1b}]0;owned\u{7}\u{9b}31m\u{7f}x\u{202e}txt.exe\u{2066}\u{2028}\u{2029}"
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "mallory", "--at", Self.monday, key)
        #expect(run.status == 3)
        #expect(
            Self.lines(run.stderr) == [
                "denied by (identity): the resource holds the control character U+001B at position 8",
                #"  request: mallory read "avatars/\u{1b}[2J\u{1b}]0;owned\u{7}\u{9b}31m\u{7f}x\u{202e}txt.exe\u{2066}\u{2028}\u{2029}" (service avatars)"#,
            ])
        let raw = run.stdout + run.stderr
        #expect(!raw.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(
            !raw.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.properties.isBidiControl })
    }

    @Test func aSubjectWithACarriageReturnIsEscaped() async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "mallory\rallowed: alice", "--action", "read\tall",
            "--attr", "device=phone\nallowed: x", "--at", Self.monday, "avatars/alice.txt")
        #expect(run.status == 3)
        #expect(
            Self.lines(run.stderr) == [
                "denied by (identity): the subject holds the control character U+000D at position 7",
                #"  request: mallory\rallowed: alice read\tall "avatars/alice.txt" [device=phone\nallowed: x] (service avatars)"#,
            ])
    }

    @Test func aBackslashIsDoubledSoEscapesReadBackUnambiguously() async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "mallory", "--at", Self.monday, #"a\nb"#)
        #expect(
            Self.lines(run.stderr).last == #"  request: mallory read "a\\nb" (service avatars)"#)
    }

    @Test func aGateNameAndReasonFromTheConfigurationAreEscaped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let folder = directory.url
        let rulesName = "odd\u{1b}[31m\nallowed: x.rules"
        try Data("allow alice read avatars/*\n".utf8).write(to: folder.appendingPathComponent(rulesName))
        let config = folder.appendingPathComponent("gatehouse.json")
        try Data(
            JSONSerialization.data(withJSONObject: [
                "services": [
                    "s\u{2028}vc": [
                        "loader": ["type": "memory", "resources": [String: String]()],
                        "gatekeepers": [
                            ["type": "file", "name": "rules\nallowed: bob", "path": rulesName]
                                as [String: Any]
                        ],
                    ] as [String: Any]
                ]
            ])
        ).write(to: config)

        let run = try await Examples.command(
            "check", "--config", config.path, "--subject", "mallory", "--at", Self.monday, "avatars/a.txt")
        #expect(run.status == 3)
        #expect(
            Self.lines(run.stderr) == [
                #"denied by rules\nallowed: bob: no rule in odd\u{1b}[31m\nallowed: x.rules allows"#,
                #"  request: mallory read "avatars/a.txt" (service s\u{2028}vc)"#,
                "  nearest rules:",
                #"    odd\u{1b}[31m\nallowed: x.rules:1: mallory is not alice"#,
            ])
        #expect(!Self.allLines(run).contains { $0.hasPrefix("allowed:") })

        let validate = try await Examples.command("validate", config.path)
        #expect(validate.status == 0)
        let valid = #"valid; 1 service, 1 rule, 0 groups: s\u{2028}vc"#
        #expect(Self.lines(validate.stdout) == ["\(config.path): \(valid)"])

        let explain = try await Examples.command("describe", config.path)
        #expect(explain.status == 0)
        #expect(Self.lines(explain.stdout).first == #"service "s\u{2028}vc": gate → loader"#)
        #expect(!Self.allLines(explain).contains { $0.hasPrefix("allowed:") })
    }

    @Test func aConfigurationPathWithANewlineIsEscapedInErrors() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try directory.makeDirectory("esc\nallowed: x")
        let folder = directory.file("esc\nallowed: x")
        let config = folder.appendingPathComponent("bad.json")
        try Data("[]".utf8).write(to: config)
        let run = try await Examples.command("validate", config.path)
        #expect(run.status == 1)
        let shown = config.path.replacingOccurrences(of: "\n", with: #"\n"#)
        #expect(
            Self.lines(run.stderr) == [
                #"\#(shown): the configuration is an array; expected a JSON object such as {"services": {...}}"#
            ])
    }

    @Test func usageErrorsEscapeWhatWasTyped() async throws {
        let run = try await Examples.command(["check", "--config", Self.config, "--sub\nallowed: x", "k"])
        #expect(run.status == 2)
        #expect(
            Self.lines(run.stderr).first
                == #"error: unknown option '--sub\nallowed: x' for 'check'"#)
        #expect(!Self.allLines(run).contains { $0.hasPrefix("allowed:") })
    }

    @Test func jsonOutputEscapesControlCharactersAndStaysExact() async throws {
        let key = "x\nallowed: y\u{1b}[2J\u{85}\u{202e}\u{2028}"
        let subject = "mallory\r"
        let run = try await Examples.command(
            "check", "--json", "--config", Self.config, "--subject", subject, "--at", Self.monday, key)
        #expect(run.status == 3)
        #expect(Self.lines(run.stdout).count == 1)
        #expect(run.stdout.contains(#""resource":"x\nallowed: y\u001b[2J\u0085\u202e\u2028""#))
        #expect(
            !run.stdout.dropLast().unicodeScalars.contains {
                $0.value < 0x20 || $0.value >= 0x7F && $0.value <= 0x9F
            })
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let request = object?["request"] as? [String: Any]
        #expect(request?["resource"] as? String == key)
        #expect(request?["subject"] as? String == subject)
        #expect(
            object?["reason"] as? String == "the resource holds the control character U+000A at position 1")
    }
}
