import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// The command as a library: an app's own policy type, registered in the `PluginRegistry` the
/// command is given, validates, explains and decides like a built-in type; the default
/// registry still refuses it.
@Suite("The command with an app's own plugin types")
struct PluginCommandTests {
    /// A configuration with one service whose only gatekeeper is the app's `tenant` type.
    static let configuration = #"""
        {
          "services": {
            "plans": {
              "loader": { "type": "memory", "resources": { "plans/q3.txt": "forecast" } },
              "gatekeepers": [ { "type": "tenant", "name": "acme-only", "tenant": "acme" } ]
            }
          }
        }
        """#

    @Test func aRegisteredPolicyTypeValidates() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", folder.configuration], registry: try Self.tenantRegistry())
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == ["\(folder.configuration): valid; 1 service, 0 rules, 0 groups: plans"])
        #expect(run.err.isEmpty)
    }

    @Test func aRegisteredPolicyTypeIsDescribedWithItsOwnDescription() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(["describe", folder.configuration], registry: try Self.tenantRegistry())
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.joined(separator: "\n").contains("tenant acme"), "\(run.out)")
    }

    @Test func checkAllowsARequestOfTheRegisteredTenant() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(
            ["check", "--config", folder.configuration, "--attr", "tenant=acme", "plans/q3.txt"],
            registry: try Self.tenantRegistry())
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == [#"allowed: (no subject) read "plans/q3.txt" [tenant=acme] (service plans)"#])
    }

    @Test func checkDeniesARequestOfAnotherTenantNamingTheGatekeeperAndReason() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(
            ["check", "--config", folder.configuration, "--attr", "tenant=globex", "plans/q3.txt"],
            registry: try Self.tenantRegistry())
        #expect(run.status == 3)
        #expect(run.out.isEmpty)
        #expect(run.err.first == "denied by acme-only: not tenant acme")
    }

    @Test func loadReachesTheLoaderThroughTheRegisteredPolicy() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let run = await Captured.run(
            ["load", "--config", folder.configuration, "--attr", "tenant=acme", "plans/q3.txt"],
            registry: try Self.tenantRegistry())
        #expect(run.status == 0, "\(run.err)")
        #expect(run.data == Data("forecast".utf8))
    }

    @Test func aCaseTableDecidesThroughTheRegisteredPolicy() async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let table = folder.url.appendingPathComponent("cases.json")
        try Data(
            #"""
            { "config": "gatehouse.json", "cases": [
              { "name": "acme reads", "resource": "plans/q3.txt", "attributes": { "tenant": "acme" }, "expect": "allow" },
              { "name": "globex does not", "resource": "plans/q3.txt", "attributes": { "tenant": "globex" }, "expect": "deny", "gatekeeper": "acme-only" }
            ] }
            """#.utf8
        ).write(to: table)
        let run = await Captured.run(["test", table.path], registry: try Self.tenantRegistry())
        #expect(run.status == 0, "\(run.out) \(run.err)")
        #expect(run.out.last == "2 passed, 0 failed")
    }

    /// Each command, with `CONFIG` standing for the configuration's path.
    static let commandsThatAssemble: [[String]] = [
        ["validate", "CONFIG"], ["describe", "CONFIG"],
        ["check", "--config", "CONFIG", "--attr", "tenant=acme", "plans/q3.txt"],
    ]

    @Test(arguments: commandsThatAssemble)
    func theDefaultRegistryRefusesTheUnknownType(_ command: [String]) async throws {
        let folder = try TemporaryDirectory(configuration: Self.configuration)
        defer { folder.cleanUp() }
        let arguments = command.map { $0 == "CONFIG" ? folder.configuration : $0 }
        let run = await Captured.run(arguments, registry: PluginRegistry())
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.joined(separator: "\n").contains(#"unknown policy type "tenant""#), "\(run.err)")
    }

    @Test func thePublicInitializerUsesTheBuiltInTypesByDefault() {
        #expect(GatehouseCommand().registry.gatekeeperTypes == PluginRegistry().gatekeeperTypes)
    }

    // MARK: the app's plugin

    /// Allows requests whose `tenant` attribute is this tenant. The configuration's `name`
    /// ("acme-only") replaces `name` in denials: the assembler gives every gatekeeper its name.
    struct TenantPolicy: AccessPolicy {
        let name = "tenant"
        let tenant: String
        func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            request.attributes["tenant"] == tenant ? .allow : .deny(reason: "not tenant \(tenant)")
        }
    }

    struct TenantSettings: Decodable, Sendable {
        var tenant: String
    }

    /// The built-in types and `tenant`.
    static func tenantRegistry() throws -> PluginRegistry {
        var registry = PluginRegistry()
        try registry.registerGatekeeper(
            "tenant", settings: TenantSettings.self, describe: { "tenant \($0.tenant)" },
            factory: { settings, _ in TenantPolicy(tenant: settings.tenant) })
        return registry
    }
}

/// What one run of the command wrote, line by line, and its exit status.
struct Captured {
    var status: Int32
    var out: [String]
    var err: [String]
    /// The bytes `load` wrote to standard output.
    var data: Data
    /// What was written as progress, when standard error was taken for a terminal.
    var progress: [String] = []

    /// Runs the command with `registry` on `arguments`, capturing what it writes; with
    /// `terminal`, standard error is taken for a terminal, and progress shows at once.
    static func run(
        _ arguments: [String], registry: PluginRegistry = .command, terminal: Bool = false
    ) async -> Captured {
        let sink = Sink()
        var console = Console(
            out: { sink.append(\.out, $0) }, err: { sink.append(\.err, $0) },
            outData: { data in sink.append(data) })
        if terminal {
            console.progressLine = { sink.append(\.progress, $0) }
            console.progressDelay = .zero
        }
        let status = await GatehouseCommand(registry: registry, console: console).run(arguments)
        return sink.captured(status: status)
    }

    /// Collects the lines; the command writes from one task, the lock keeps it `Sendable`.
    final class Sink: @unchecked Sendable {
        private let lock = NSLock()
        private var value = Captured(status: 0, out: [], err: [], data: Data())

        func append(_ stream: WritableKeyPath<Captured, [String]>, _ text: String) {
            lock.withLock {
                value[keyPath: stream] += text.split(separator: "\n", omittingEmptySubsequences: false).map(
                    String.init)
            }
        }

        func append(_ data: Data) {
            lock.withLock { value.data.append(data) }
        }

        func captured(status: Int32) -> Captured {
            lock.withLock {
                var result = value
                result.status = status
                return result
            }
        }
    }
}

extension TemporaryDirectory {
    /// A fresh folder holding `gatehouse.json` with `text`.
    convenience init(configuration text: String) throws {
        try self.init()
        try write("gatehouse.json", text)
    }

    /// The path of the folder's `gatehouse.json`.
    var configuration: String { path("gatehouse.json") }
}
