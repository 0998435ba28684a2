import Foundation
import GatehouseComposition
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// The list of subcommands is written once: dispatch, help, the overview, did-you-mean and the
/// synopsis in docs/cli.md all come from it.
@Suite("Subcommands, their help and their usage")
struct SubcommandTests {
    @Test func anUnknownCommandSuggestsTheClosestAndPrintsEveryUsageLine() async {
        let run = await Captured.run(["chek"])
        #expect(run.status == 2)
        #expect(run.out.isEmpty)
        #expect(
            run.err.first
                == "error: unknown command 'chek' (did you mean 'check'?); commands are \(Commands.names)")
        #expect(Array(run.err.dropFirst().prefix(Commands.all.count)) == Commands.usageLines)
    }

    @Test func anUnknownCommandWithNothingCloseStillPrintsTheRealUsage() async {
        let run = await Captured.run(["bogus"])
        #expect(run.status == 2)
        #expect(run.err.first?.hasPrefix("error: unknown command 'bogus'; commands are check, load") == true)
        #expect(
            run.err.contains("gatehouse validate [--json] [--strict] [--invariants FILE] FILE"), "\(run.err)")
        #expect(!run.err.contains("Usage:"))
    }

    @Test(arguments: [["--version"], ["version"]])
    func versionPrintsThePackageVersion(_ arguments: [String]) async {
        let run = await Captured.run(arguments)
        #expect(run.status == 0)
        #expect(run.out == ["gatehouse \(GatehouseCommand.version)"])
    }

    @Test func aBareCheckAsksForTheConfigurationBeforeTheKey() async {
        let bare = await Captured.run(["check"])
        #expect(bare.status == 2)
        #expect(bare.err.first?.hasPrefix("error: missing --config FILE for 'check'") == true, "\(bare.err)")
        let withConfig = await Captured.run(["check", "--config", "gatehouse.json"])
        #expect(withConfig.err.first == "error: missing KEY for 'check'")
    }

    @Test(arguments: [("store", "write"), ("remove", "delete"), ("list", "list")])
    func aFixedActionCommandRefusesActionSayingWhatItAsks(command: String, action: String) async {
        let run = await Captured.run([command, "--config", "c.json", "--action", "read", "k"])
        #expect(run.status == 2)
        #expect(
            run.err.first?.hasPrefix("error: '\(command)' takes no option '--action': \(command)") == true)
        #expect(run.err.first?.contains("action \(action)") == true, "\(run.err)")
    }

    @Test(arguments: [["check", "k"], ["load", "k"], ["list", "k"], ["plan"]])
    func anUnknownServiceIsAUsageErrorForEveryRequestCommandPlanIncluded(_ command: [String]) async throws {
        let folder = try TemporaryDirectory(
            configuration: #"""
                { "services": { "docs": { "loader": { "type": "memory", "resources": {} },
                    "gatekeepers": [{ "type": "alwaysAllow" }] } } }
                """#)
        defer { folder.cleanUp() }
        let run = await Captured.run(
            [command[0], "--config", folder.configuration, "--service", "doc"] + command.dropFirst())
        #expect(run.status == 2)
        #expect(run.out.isEmpty)
        #expect(run.err.first?.hasPrefix(#"error: no service "doc""#) == true, "\(run.err)")
    }

    @Test func everySubcommandHasHelpStartingWithItsNameAndUsage() async {
        for command in Commands.all {
            let run = await Captured.run([command.name, "--help"])
            #expect(run.status == 0)
            #expect(run.out.first == "gatehouse \(command.name) - \(command.abstract)")
            #expect(run.out.contains("Usage: \(command.synopsis)"), "\(command.name)")
            let viaHelp = await Captured.run(["help", command.name])
            #expect(viaHelp.out == run.out)
        }
    }

    @Test func theOverviewShowsEveryUsageLine() async {
        let run = await Captured.run(["help"])
        #expect(run.status == 0)
        for line in Commands.usageLines { #expect(run.out.contains("  " + line), "\(line)") }
    }

    @Test func theCommandsOfDocsCliAreTheUsageLinesOfTheList() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Commands\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```").dropFirst().first)
        let lines = block.split(separator: "\n").dropFirst().map(String.init)
        #expect(lines == Commands.usageLines)
    }

    @Test func countsAreWrittenWithThousandsSeparators() {
        #expect(Validate.count(1, "rule") == "1 rule")
        #expect(Validate.count(0, "rule") == "0 rules")
        #expect(Validate.count(200_000, "rule") == "200,000 rules")
        #expect(Validate.count(1_000_000, "rule") == "1,000,000 rules")
    }
}
