import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// The demo's printed commands start the way a shell reaches the program, and its copy of the
/// example is gone when it ends.
@Suite("gatehouse demo: invocation and cleanup")
struct DemoInvocationTests {
    @Test(arguments: [
        ("gatehouse", "/work/app", "gatehouse"),
        ("/work/app/.build/debug/gatehouse", "/work/app", ".build/debug/gatehouse"),
        ("/work/app/.build/debug/gatehouse", "/work/app/", ".build/debug/gatehouse"),
        (".build/debug/gatehouse", "/work/app", ".build/debug/gatehouse"),
        ("/work/app/gatehouse", "/work/app", "./gatehouse"),
        ("/usr/local/bin/gatehouse", "/work/app", "/usr/local/bin/gatehouse"),
        ("../tools/gatehouse", "/work/app", "/work/tools/gatehouse"),
    ])
    func theProgramIsPrintedAsAShellInThatFolderFindsIt(
        _ argument0: String, _ folder: String, _ printed: String
    ) {
        #expect(GatehouseCommand.invocation(of: argument0, workingDirectory: folder) == printed)
    }

    @Test func theDemoRemovesItsCopyAndPrintsItsCommandsWithTheProgramGiven() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let scratch = directory.url
        let lines = Lines()
        let console = Console(
            out: { lines.append($0) }, err: { lines.append($0) },
            outData: { lines.append(String(decoding: $0, as: UTF8.self)) })
        let status = await Demo(
            console: console, registry: .init(), program: "/opt/my tools/gatehouse", scratch: scratch
        ).run()
        #expect(status == .ok)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        let output = lines.text
        #expect(output.contains("--config \(scratch.path)/gatehouse-demo-"))
        #expect(output.components(separatedBy: "\n  $ '/opt/my tools/gatehouse' ").count == 6)
        #expect(output.components(separatedBy: "\n  # '/opt/my tools/gatehouse' check").count == 2)
        #expect(!output.contains("$ gatehouse "))
    }
}

/// Lines a console printed, in order.
private final class Lines: Sendable {
    private let state = LockedState<[String]>([])
    func append(_ line: String) { state.withLock { $0.append(line) } }
    var text: String { state.withLock { $0.joined(separator: "\n") } }
}
