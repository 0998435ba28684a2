import Foundation
import Testing

/// Every `gatehouse` command that README.md and docs/*.md show is run as the docs show it, so a
/// doc cannot drift from the program.
///
/// The convention (docs/cli.md says it to readers): a command is written in a ```` ```console ````
/// block after a `$ ` prompt, as `gatehouse ARGS` or `swift run gatehouse ARGS`, run from the
/// package root; the lines under it, up to the next `$ `, are what it prints (standard output,
/// then standard error); a following `$ echo $?` shows its exit status on the next line. A
/// synopsis goes in a ```` ```text ```` block. Every command must be listed below, with the exit
/// status it must end with or the reason it cannot be run here.
@Suite("Commands shown in the docs")
struct DocumentedCommandTests {
    /// The exit status each runnable command must end with (cli.md: 0 allowed or ok, 1 error,
    /// 2 usage, 3 denied), keyed by the command as written, without `swift run ` and comments.
    static let expectedStatus: [String: Int32] = [
        "gatehouse": 0,
        "gatehouse check --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt":
            0,
        "gatehouse validate Examples/demo/gatehouse.json": 0,
        "gatehouse validate Examples/demo/avatars.rules": 0,
        "gatehouse validate Examples/configurations/documents.rules": 0,
        "gatehouse validate Examples/configurations/documents.rules --invariants Examples/configurations/documents.invariants":
            0,
        "gatehouse test Examples/demo/gatehouse.tests.json": 0,
        "gatehouse check --config Examples/demo/gatehouse.json --subject mallory --at 2026-11-30T10:00:00Z avatars/alice.txt":
            3,
        "gatehouse check --json --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt":
            0,
        "gatehouse check --config /dev/null avatars/alice.txt": 1,
        "gatehouse check --config Examples/demo/gatehouse.json --subjct alice avatars/alice.txt": 2,
        "gatehouse check --config Examples/demo/gatehouse.json --at 2026-02-30T10:00:00Z avatars/alice.txt":
            2,
        #"gatehouse check --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z $'avatars/alice\nallowed: mallory read "Keys/master"'"#:
            3,
        "gatehouse check --config Examples/configurations/documents.json --subject gina --attr tenant=acme tenants/acme/plan.txt":
            0,
        "gatehouse check --config Examples/configurations/documents.json --subject dana --attr device=unmanaged exports/customers.csv":
            3,
        // Plans and near misses through named gatekeepers, on both example configurations.
        "gatehouse plan --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z --sql":
            0,
        "gatehouse plan --config Examples/configurations/documents.json --subject erin --sql": 0,
        "gatehouse plan --config Examples/configurations/owned.json --subject bob --sql": 0,
        "gatehouse plan --config Examples/configurations/documents.json --subject erin --sql --dialect postgresql":
            0,
        "gatehouse plan --config Examples/configurations/documents.json --subject erin --sql --dialect postgres":
            2,
        "gatehouse check --config Examples/demo/gatehouse.json --subject carol --at 2026-11-30T10:00:00Z avatars/alice.txt":
            3,
        "gatehouse check --config Examples/configurations/documents.json --subject zoe docs/handbook.txt": 3,
        // Changing rules safely (docs/changing-rules.md): a diff with changes, a rule that never decides.
        "gatehouse diff Examples/changing-rules/docs.rules.old Examples/changing-rules/docs.rules": 1,
        "gatehouse diff --json --subject bob --action write Examples/changing-rules/docs.rules.old Examples/changing-rules/docs.rules":
            1,
        "gatehouse validate --strict Examples/changing-rules/docs.rules": 1,
    ]

    /// The commands the docs show that this test does not run, and why.
    static let skipped: [String: String] = [
        "echo '[]' > list.json; gatehouse validate list.json":
            "writes list.json into the current folder (GatehouseCommandInputTests covers the message)",
        "gatehouse validate gatehouse.json":
            "runs on the reader's own folder, whose avatars.rules was broken (then deleted) on purpose",
        "rm avatars.rules; gatehouse validate gatehouse.json":
            "deletes a rules file in the reader's own folder",
        "gatehouse test cases.json":
            "runs a case table the reader wrote (GatehouseTestCommandTests covers its messages)",
    ]

    @Test(arguments: DocumentedCommand.all)
    func aDocumentedCommandEndsAndPrintsAsTheDocShows(_ command: DocumentedCommand) async throws {
        guard Self.skipped[command.key] == nil else { return }
        let status = try #require(
            Self.expectedStatus[command.key], "\(command) is listed nowhere in this test")
        let arguments = try #require(command.arguments, "\(command) is not a plain gatehouse command")
        let run = try await Examples.command(arguments)
        #expect(run.status == status, "\(command): \(run.stderr)")
        if let shown = command.shownStatus {
            #expect(run.status == shown, "\(command) shows exit status \(shown)")
        }
        if !command.shownOutput.isEmpty {
            let printed = (run.stdout + run.stderr).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)
            #expect(Array(printed.dropLast()) == command.shownOutput, "\(command)")
        }
    }

    @Test func everyDocumentedCommandIsRunOrSkippedWithAReason() {
        let keys = Set(DocumentedCommand.all.map(\.key))
        #expect(DocumentedCommand.all.count >= 15, "the docs were not found or not parsed")
        for command in DocumentedCommand.all {
            let listed =
                (Self.expectedStatus[command.key] != nil ? 1 : 0) + (Self.skipped[command.key] != nil ? 1 : 0)
            #expect(listed == 1, "\(command): list it once, with its exit status or the reason it is skipped")
            if Self.expectedStatus[command.key] != nil {
                #expect(command.arguments != nil, "\(command): a shell line; skip it with a reason")
            }
        }
        for key in Set(Self.expectedStatus.keys).union(Self.skipped.keys) where !keys.contains(key) {
            Issue.record("listed here but shown in no doc (the doc changed?): \(key)")
        }
    }

    @Test func theDocsWriteCommandsOnlyInConsoleBlocksAfterAPrompt() {
        #expect(DocumentedCommand.misplacedCommands() == [])
    }
}

/// A `gatehouse` command shown in a doc, with what the doc says it prints and exits with.
struct DocumentedCommand: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    /// The doc, relative to the package root.
    var file: String
    /// The command's line in the doc, from 1.
    var line: Int
    /// The command as written after the prompt, without `swift run `, a trailing comment and
    /// repeated blanks.
    var key: String
    /// The arguments after `gatehouse`, as a shell would pass them; `nil` for a line that needs
    /// a shell (`;`, `|`, `>`, `<`, `&`) or runs another program first.
    var arguments: [String]?
    /// The lines the doc shows under the command.
    var shownOutput: [String]
    /// The exit status a following `$ echo $?` shows.
    var shownStatus: Int32?

    var description: String { "\(file):\(line): \(key)" }
    var testDescription: String { description }

    /// The docs that show commands: README.md and every Markdown file in docs/.
    static var docs: [String] {
        let folder = Examples.packageRoot.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// Every command in every doc, in order.
    static let all: [DocumentedCommand] = docs.flatMap { commands(in: $0) }

    /// The lines of `file`, each with its fenced block's language (`nil` outside a block).
    static func lines(of file: String) -> [(number: Int, text: String, block: String?)] {
        let url = Examples.packageRoot.appendingPathComponent(file)
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var block: String?
        var result: [(Int, String, String?)] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                block = block == nil ? String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces) : nil
                continue
            }
            result.append((index + 1, line, block))
        }
        return result
    }

    /// The commands of `file`'s console blocks that run `gatehouse`.
    static func commands(in file: String) -> [DocumentedCommand] {
        var commands: [DocumentedCommand] = []
        var current: DocumentedCommand?
        var awaitingStatus = false
        func finish() {
            if let command = current { commands.append(command) }
            current = nil
        }
        for (number, text, block) in lines(of: file) {
            guard block == "console" else {
                finish()
                awaitingStatus = false
                continue
            }
            if text.hasPrefix("$ ") {
                let line = String(text.dropFirst(2))
                if line.trimmingCharacters(in: .whitespaces) == "echo $?" {
                    awaitingStatus = current != nil
                    continue
                }
                finish()
                awaitingStatus = false
                guard let words = ShellWords.split(line), words.words.contains("gatehouse") else { continue }
                var arguments: [String]? = nil
                if !words.needsShell {
                    var rest = words.words[...]
                    if rest.starts(with: ["swift", "run"]) { rest = rest.dropFirst(2) }
                    if rest.first == "gatehouse" { arguments = Array(rest.dropFirst()) }
                }
                current = DocumentedCommand(
                    file: file, line: number, key: key(of: words.text), arguments: arguments, shownOutput: [],
                    shownStatus: nil)
            } else if awaitingStatus {
                current?.shownStatus = Int32(text.trimmingCharacters(in: .whitespaces))
                awaitingStatus = false
            } else {
                current?.shownOutput.append(text)
            }
        }
        finish()
        return commands
    }

    /// `text` without a leading `swift run ` and with runs of blanks made one.
    private static func key(of text: String) -> String {
        var key = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        if key.hasPrefix("swift run ") { key.removeFirst("swift run ".count) }
        return key
    }

    /// Lines that look like a `gatehouse` command but are written outside the convention: in a
    /// block other than `console` (a `text` block holds a synopsis), or in a console block
    /// without the `$ ` prompt (it would be read as output).
    static func misplacedCommands() -> [String] {
        var misplaced: [String] = []
        for file in docs {
            for (number, text, block) in lines(of: file) {
                guard let block, block != "text" else { continue }
                let command = text.hasPrefix("$ ") ? String(text.dropFirst(2)) : text
                let looksLikeOne =
                    command.hasPrefix("gatehouse ") || command == "gatehouse"
                    || command.hasPrefix("swift run gatehouse ") || command == "swift run gatehouse"
                if looksLikeOne && (block != "console" || !text.hasPrefix("$ ")) {
                    misplaced.append("\(file):\(number): \(text)")
                }
            }
        }
        return misplaced
    }
}

/// Splits a command line into words the way a POSIX shell (with bash's `$'...'`) would for the
/// commands the docs show: blanks separate words; `'...'`, `"..."` and `$'...'` quote; `#` at
/// the start of a word begins a comment.
enum ShellWords {
    /// The words, the text without its comment, and whether the line needs a shell to run;
    /// `nil` when a quote is not closed.
    static func split(_ line: String) -> (words: [String], text: String, needsShell: Bool)? {
        let text = String(line.prefix(lengthBeforeComment(line))).trimmingCharacters(in: .whitespaces)
        var words: [String] = []
        var word = ""
        var inWord = false
        var needsShell = false
        var characters = Array(text)[...]
        func end() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        while let character = characters.first {
            switch character {
            case " ", "\t":
                characters.removeFirst()
                end()
            case "'":
                characters.removeFirst()
                guard let close = characters.firstIndex(of: "'") else { return nil }
                word += String(characters[..<close])
                characters = characters[(close + 1)...]
                inWord = true
            case "$" where characters.dropFirst().first == "'":
                characters.removeFirst(2)
                var escaped = false
                var closed = false
                while let next = characters.popFirst() {
                    if escaped {
                        word += ["n": "\n", "t": "\t", "\\": "\\", "'": "'", "\"": "\""][next] ?? "\\\(next)"
                        escaped = false
                    } else if next == "\\" {
                        escaped = true
                    } else if next == "'" {
                        closed = true
                        break
                    } else {
                        word.append(next)
                    }
                }
                guard closed else { return nil }
                inWord = true
            case "\"":
                characters.removeFirst()
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\\", let escaped = characters.first, "\"\\$`".contains(escaped) {
                        word.append(escaped)
                        characters.removeFirst()
                    } else if next == "\"" {
                        closed = true
                        break
                    } else {
                        word.append(next)
                    }
                }
                guard closed else { return nil }
                inWord = true
            case ";", "|", "&", "<", ">", "`", "(", ")":
                needsShell = true
                characters.removeFirst()
                end()
                words.append(String(character))
            default:
                characters.removeFirst()
                word.append(character)
                inWord = true
            }
        }
        end()
        return (words, text, needsShell)
    }

    /// The length of `line` before its comment: the first `#` that starts a word outside quotes.
    private static func lengthBeforeComment(_ line: String) -> Int {
        var quote: Character?
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" && (previous == " " || previous == "\t") {
                return offset
            }
            previous = character
        }
        return line.count
    }
}
