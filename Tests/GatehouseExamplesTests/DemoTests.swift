import Foundation
import Testing

/// `gatehouse` with no arguments: a demo that fits a 100-column terminal and whose commands can
/// be run again after it ends.
@Suite("gatehouse demo")
struct DemoTests {
    /// Deletes the copy of the example a demo run leaves for its step 4b, named in its output.
    static func removeKeptCopy(of run: ExampleRun) throws {
        // Only a demo's output names such a folder; other commands' output has none.
        guard let range = run.stdout.range(of: #"/gatehouse-demo-[0-9A-F]{8}"#, options: .regularExpression)
        else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            String(run.stdout[range].dropFirst()))
        try? FileManager.default.removeItem(at: folder)
    }

    /// The commands a demo printed (`$ gatehouse ...`, continued by `\` lines), each with the
    /// exit status printed after it.
    static func commands(in output: String) -> [(arguments: [String], status: Int32)] {
        var commands: [(arguments: [String], status: Int32)] = []
        var pending: String?
        var continued = false
        for line in output.split(separator: "\n").map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("$ gatehouse ") {
                pending = String(trimmed.dropFirst("$ gatehouse ".count))
                continued = trimmed.hasSuffix("\\")
            } else if continued, let text = pending {
                pending = text + " " + trimmed
                continued = trimmed.hasSuffix("\\")
            } else if trimmed.hasPrefix("exit status "), let text = pending,
                let status = Int32(trimmed.dropFirst("exit status ".count))
            {
                commands.append((shellWords(text.replacingOccurrences(of: "\\ ", with: " ")), status))
                pending = nil
            }
        }
        return commands
    }

    /// The words of a command line: split at spaces, single quotes kept together.
    static func shellWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var started = false
        for character in text {
            if character == "'" {
                quoted.toggle()
                started = true
            } else if character == " ", !quoted {
                if started { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
                started = true
            }
        }
        if started { words.append(word) }
        return words
    }

    @Test func everyLineOfTheDemoFitsOneHundredColumns() async throws {
        let run = try await Examples.gatehouse()
        defer { try? Self.removeKeptCopy(of: run) }
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count > 30)
        for line in lines {
            #expect(line.count <= 100, "\(line.count) columns: \(line)")
        }
    }

    @Test func everyCommandTheDemoPrintsCanBeRunAgainWithTheSameExitStatus() async throws {
        let run = try await Examples.gatehouse()
        defer { try? Self.removeKeptCopy(of: run) }
        let commands = Self.commands(in: run.stdout)
        #expect(commands.count == 6)
        for command in commands {
            let again = try await Examples.run("gatehouse", command.arguments)
            #expect(again.status == command.status, "\(command.arguments)")
        }
    }
}
