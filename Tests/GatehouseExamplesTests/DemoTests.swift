import Foundation
import Testing

/// `gatehouse` with no arguments: a demo that fits a 100-column terminal and whose commands run
/// as printed, from the folder it was started in, after it ends.
@Suite("gatehouse demo")
struct DemoTests {
    /// The commands a demo printed (`$ PROGRAM ...`, continued by `\` lines, the program's words
    /// first), each with the exit status printed after it.
    static func commands(in output: String) -> [(arguments: [String], status: Int32)] {
        var commands: [(arguments: [String], status: Int32)] = []
        var pending: String?
        var continued = false
        for line in output.split(separator: "\n").map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("$ ") {
                pending = String(trimmed.dropFirst("$ ".count))
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
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count > 30)
        for line in lines {
            #expect(line.count <= 100, "\(line.count) columns: \(line)")
        }
    }

    @Test func everyCommandTheDemoPrintsRunsAsShownWithTheSameExitStatus() async throws {
        let run = try await Examples.gatehouse()
        let commands = Self.commands(in: run.stdout)
        #expect(commands.count == 5)
        let binary = Examples.productsDirectory.appendingPathComponent("gatehouse").standardizedFileURL
        for command in commands {
            // The program as printed (a path relative to where the demo ran, since the binary is
            // not on PATH) is the binary itself.
            let program = try #require(command.arguments.first)
            let resolved = URL(fileURLWithPath: program, relativeTo: Examples.packageRoot).standardizedFileURL
            #expect(resolved.path == binary.path, "\(program)")
            let again = try await Examples.command(Array(command.arguments.dropFirst()))
            #expect(again.status == command.status, "\(command.arguments)")
        }
    }

    @Test func theDemoLeavesNoCopyAndShowsTheCopysCommandAsAComment() async throws {
        let run = try await Examples.command()
        #expect(run.status == 0)
        let folder = try #require(
            run.stdout.range(of: #"/gatehouse-demo-[0-9A-F]{8}"#, options: .regularExpression))
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            String(run.stdout[folder].dropFirst()))
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        #expect(run.stdout.contains("\n  # "))
    }
}
