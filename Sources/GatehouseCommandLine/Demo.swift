import Foundation
import GatehouseComposition
import GatehouseCore

/// `gatehouse demo` (also bare `gatehouse`): a story on the bundled example, showing each command.
struct Demo: Subcommand {
    static let name = "demo"
    static let abstract =
        "a short story on the bundled example configuration (also: gatehouse with no arguments)"
    static let discussion = "Exit status: 0 when every step behaved as told, 1 otherwise."

    let console: Console
    let registry: PluginRegistry
    /// How the printed commands start (``GatehouseCommand/invocation(of:workingDirectory:)``).
    var program = "gatehouse"
    /// Where step 4b's copy of the example is made; it is removed when the demo ends.
    var scratch = FileManager.default.temporaryDirectory

    static func run(_ arguments: CommandLineArguments, _ commands: Commands) async -> ExitStatus {
        await Demo(console: commands.console, registry: commands.registry, program: commands.program).run()
    }

    /// `Examples/demo/gatehouse.json` under the working directory, else in this source's package.
    static func bundledConfiguration() -> URL? {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return [URL(fileURLWithPath: FileManager.default.currentDirectoryPath), packageRoot]
            .map { $0.appendingPathComponent("Examples/demo/gatehouse.json") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// `path` relative to the working directory when it is below it, else absolute.
    static func display(_ url: URL) -> String {
        let here = FileManager.default.currentDirectoryPath + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path
    }

    /// The widest line the demo prints, in characters.
    static let width = 100

    func run() async -> ExitStatus {
        guard let bundled = Self.bundledConfiguration() else {
            console.err(
                "error: the bundled example configuration Examples/demo/gatehouse.json was not found; "
                    + "run from the package root")
            return .error
        }
        let config = Self.display(bundled)
        let monday = "2026-11-30T10:00:00Z"
        let saturday = "2026-11-28T10:00:00Z"
        var failures: [String] = []

        say("Gatehouse demo: a gate in front of a folder of avatars.")
        say("The configuration is \(printable(config)); `gatehouse describe` describes it:\n")
        _ = await quietly(["describe", config]) { say($0, indent: "  ") }

        /// Runs `gatehouse COMMAND --config CONFIG --subject SUBJECT --at INSTANT KEY`, as told; a
        /// command on the copy is printed as a comment (`#`), since the copy is gone after the demo.
        func step(
            _ title: String, _ command: String, _ subject: String, at instant: String = monday,
            config: String = config, onTheCopy: Bool = false, key: String = "avatars/alice.txt",
            expect: ExitStatus
        ) async {
            let arguments = [command, "--config", config, "--subject", subject, "--at", instant, key]
            say("\n" + title, continuation: "    ")
            let words = arguments.map { Self.quote(printable($0)) }
            for line in Self.command(words, program: program, prompt: onTheCopy ? "#" : "$") {
                console.out(line)
            }
            let status = await quietly(arguments) { say($0, indent: "    ", continuation: "      ") }
            console.out("  exit status \(status.rawValue)")
            if status != expect {
                failures.append("\(title): exit status \(status.rawValue), expected \(expect.rawValue)")
            }
        }

        await step(
            "1. alice loads her own avatar on a Monday at 11:00 in Berlin: every gate allows and the "
                + "loader is reached.",
            "load", "alice", expect: .ok)
        await step(
            "2. mallory asks for the same avatar: she is not on the team, the allow-list denies, the "
                + "loader is never touched.",
            "check", "mallory", expect: .denied)
        await step(
            "3. alice asks again, on a Saturday: outside office hours, the time window denies.",
            "check", "alice", at: saturday, expect: .denied)
        await step("4a. bob may read any avatar while his rule stands:", "check", "bob", expect: .ok)

        // Step 4b edits a copy, removed when the demo ends (whatever way it ends).
        let folder = scratch.appendingPathComponent("gatehouse-demo-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("avatars.rules")
        do {
            try FileManager.default.copyItem(at: bundled.deletingLastPathComponent(), to: folder)
            let text = String(
                decoding: try BoundedRead.contents(
                    ofFile: rules.path, limit: 1 << 20, expected: "a rules file"),
                as: UTF8.self)
            let revoked = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("allow     bob") }.joined(separator: "\n")
            try Data(revoked.utf8).write(to: rules, options: .atomic)  // write, then rename
        } catch {
            console.err(
                "error: cannot make a copy of the example in \(printable(folder.path)): "
                    + printable(describe(error)))
            return .error
        }
        say(
            "\n    (on a copy of the example in \(printable(folder.path)), the line \"allow bob read "
                + "avatars/*\" is removed from avatars.rules, replacing the file atomically; the copy "
                + "is removed when the demo ends, so its command is shown as a comment)",
            continuation: "     ")
        await step(
            "4b. the very next request from bob is denied: the rules file is re-checked at every "
                + "decision, no grant is cached.",
            "check", "bob", config: folder.appendingPathComponent("gatehouse.json").path, onTheCopy: true,
            expect: .denied)
        await step(
            "5. a hostile path: the proxy refuses a \"..\" component before any gate, so no loader sees it.",
            "load", "alice", key: "avatars/alice/../../../gatehouse.json", expect: .denied)

        if failures.isEmpty {
            say(
                "\nEvery step behaved as told. Try the commands yourself; `\(Self.quote(program)) help` lists "
                    + "them all.")
            return .ok
        }
        for failure in failures { console.err("demo step did not behave as expected: \(printable(failure))") }
        return .error
    }

    /// Prints `text`, each line wrapped to ``width``, its wrapped part after `continuation`.
    private func say(_ text: String, indent: String = "", continuation: String? = nil) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // Empty words keep runs of spaces, such as an indented line of `describe`.
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            Self.wrap(words, indent: indent, continuation: continuation ?? indent).forEach(console.out)
        }
    }

    /// `words` in lines of at most ``width`` (a longer word alone), broken ones ending in `lineEnd`.
    static func wrap(_ words: [String], indent: String, continuation: String, lineEnd: String = "")
        -> [String]
    {
        var lines: [String] = []
        var line = indent
        var holdsAWord = false
        for word in words {
            if holdsAWord, line.count + 1 + word.count + lineEnd.count > width {
                lines.append(line + lineEnd)
                line = continuation + word
            } else {
                line += (holdsAWord ? " " : "") + word
            }
            holdsAWord = true
        }
        lines.append(line)
        return lines
    }

    /// `$ PROGRAM ARGUMENTS` as lines to paste into a shell, an option kept with its value;
    /// `prompt` `#` makes it a comment.
    static func command(_ arguments: [String], program: String = "gatehouse", prompt: String = "$")
        -> [String]
    {
        var units = ["\(prompt) \(quote(program))"]
        for argument in arguments {
            if let last = units.last, last.hasPrefix("--"), !last.contains(" "), !argument.hasPrefix("--") {
                units[units.count - 1] += " " + argument
            } else {
                units.append(argument)
            }
        }
        // A comment stays one: each continued line is a comment too, with no `\\` to continue.
        let comment = prompt == "#"
        return wrap(
            units, indent: "  ", continuation: comment ? "  #     " : "      ", lineEnd: comment ? "" : " \\")
    }

    /// Runs a command with both its streams sent, line by line, to `sink`.
    private func quietly(_ arguments: [String], sink: @escaping @Sendable (String) -> Void) async
        -> ExitStatus
    {
        let lines: @Sendable (String) -> Void = { text in
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) { sink(String(line)) }
        }
        let captured = Console(
            out: lines, err: lines,
            outData: { data in lines(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
            })
        return await Commands(console: captured, registry: registry).run(arguments)
    }

    static func quote(_ argument: String) -> String {
        let safe = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@+,".contains($0) }
        return safe ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
