import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse describe` describes a configuration; `explain`, its older name, still runs it.
@Suite("The describe command and its older name")
struct DescribeCommandTests {
    static let configuration = """
        { "services": { "s": {
            "loader": { "type": "memory", "resources": { "a": "A" } },
            "gatekeepers": [{ "type": "not", "gatekeeper": { "type": "alwaysDeny" } }] } } }
        """

    @Test(arguments: [[], ["--json"]])
    func explainPrintsWhatDescribePrints(_ options: [String]) async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let described = await Captured.run(["describe"] + options + [folder.configuration])
        let explained = await Captured.run(["explain"] + options + [folder.configuration])
        #expect(described.status == 0, "\(described.err)")
        #expect(explained.status == described.status)
        #expect(explained.out == described.out)
        #expect(explained.err == described.err)
        #expect(!described.out.isEmpty)
    }

    @Test func helpForExplainIsTheHelpOfDescribe() async {
        let described = await Captured.run(["help", "describe"])
        let explained = await Captured.run(["help", "explain"])
        #expect(described.out.first?.hasPrefix("gatehouse describe - ") == true)
        #expect(explained.out == described.out)
        #expect(described.out.joined(separator: "\n").contains("'gatehouse explain' is an older name"))
    }

    @Test func theCommandListNamesDescribeAndNotExplain() async {
        let overview = await Captured.run(["help"]).out.joined(separator: "\n")
        #expect(overview.contains("gatehouse describe"))
        #expect(!overview.contains("gatehouse explain"))
    }
}
