import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// `AssembledServices.validate()`: every rules file a configuration names is read and parsed
/// ahead of any decision, and each problem is reported at its gatekeeper's place with the file
/// and line, wherever the gatekeeper is nested.
@Suite("Validation ahead of decisions")
struct ValidationTests {
    static let goodRules = "allow alice read a\n"
    static let badRules = "# rules\nallow alice read\n"

    /// The issues `validate()` reports for `json` assembled in `folder`, as text.
    static func validationIssues(
        _ json: String, in folder: TemporaryDirectory, registry: PluginRegistry = PluginRegistry()
    ) async throws -> [String] {
        let file = try folder.write(json, to: "gatehouse.json")
        let services = try Assembler(registry: registry).assemble(contentsOf: file)
        do {
            try await services.validate()
            return []
        } catch let error as ConfigurationError {
            #expect(error.file?.lastPathComponent == "gatehouse.json")
            return error.issues.map(\.description)
        }
    }

    @Test func aConfigurationWhoseRulesFilesParseIsValid() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.goodRules, to: "good.rules")
        let issues = try await Self.validationIssues(
            service(gatekeepers: #"[{ "type": "file", "path": "good.rules" }]"#), in: folder)
        #expect(issues.isEmpty)
    }

    @Test func aMalformedRulesFileIsReportedAtItsGatekeeperWithFileAndLine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.badRules, to: "bad.rules")
        let issues = try await Self.validationIssues(
            service(
                gatekeepers:
                    #"[{ "type": "alwaysAllow" }, { "type": "file", "name": "rules", "path": "bad.rules" }]"#),
            in: folder)
        #expect(issues.count == 1)
        #expect(issues.first?.hasPrefix("services.s.gatekeepers[1]: bad.rules:2: ") == true, "\(issues)")
    }

    @Test func aRulesFileNestedInCombinatorsIsReportedAtItsNestedPlace() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.badRules, to: "bad.rules")
        try folder.write(Self.goodRules, to: "good.rules")
        let gatekeepers = """
            [{ "type": "allOf", "policies": [
                { "type": "file", "path": "good.rules" },
                { "type": "anyOf", "policies": [
                    { "type": "alwaysDeny" },
                    { "type": "not", "name": "inverted", "policy": { "type": "file", "path": "bad.rules" } }
                ] }
            ] }]
            """
        let issues = try await Self.validationIssues(service(gatekeepers: gatekeepers), in: folder)
        #expect(issues.count == 1)
        #expect(
            issues.first?.hasPrefix("services.s.gatekeepers[0].policies[1].policies[1].policy: bad.rules:2: ")
                == true, "\(issues)")
    }

    @Test func aMissingRulesFileOfAShadowGatekeeperIsReportedToo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let issues = try await Self.validationIssues(
            service(
                gatekeepers: #"[{ "type": "alwaysAllow" }]"#,
                extra: #", "shadow": [{ "type": "file", "path": "missing.rules" }]"#),
            in: folder)
        #expect(issues.count == 1)
        #expect(
            issues.first?.hasPrefix("services.s.shadow[0]: missing.rules: cannot read") == true, "\(issues)")
    }

    @Test func everyProblemOfEveryServiceIsReportedInFileOrder() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.badRules, to: "bad.rules")
        let json = """
            { "services": {
                "first": { "loader": { "type": "memory", "resources": {} },
                    "gatekeepers": [{ "type": "file", "path": "bad.rules" }, { "type": "file", "path": "gone.rules" }] },
                "second": { "loader": { "type": "memory", "resources": {} },
                    "gatekeepers": [{ "type": "file", "path": "bad.rules" }] } } }
            """
        let issues = try await Self.validationIssues(json, in: folder)
        #expect(
            issues.map { $0.prefix { $0 != ":" } } == [
                "services.first.gatekeepers[0]", "services.first.gatekeepers[1]",
                "services.second.gatekeepers[0]",
            ])
    }

    @Test func aPluginPolicyThatReportsValidationIssuesIsAsked() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        var registry = PluginRegistry()
        try registry.registerGatekeeper("directory", settings: DirectorySettings.self) { settings, _ in
            DirectoryPolicy(reachable: settings.reachable)
        }
        let issues = try await Self.validationIssues(
            service(
                gatekeepers: #"[{ "type": "not", "policy": { "type": "directory", "reachable": false } }]"#),
            in: folder, registry: registry)
        #expect(issues == ["services.s.gatekeepers[0].policy: the directory cannot be reached"])
    }

    @Test func validatingChangesNothingDecisionsUse() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.goodRules, to: "good.rules")
        let file = try folder.write(
            service(
                gatekeepers: #"[{ "type": "file", "path": "good.rules", "whenInvalid": "keepLastGood" }]"#),
            to: "gatehouse.json")
        let services = try Assembler().assemble(contentsOf: file)
        let service = try services.service(named: nil)
        try await services.validate()
        try folder.write(Self.badRules, to: "good.rules")
        // The check kept no version: with no good version loaded by a decision, keepLastGood has
        // nothing to fall back on and the decision fails.
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                try await service.authorize(service.request(for: "a"))
            }
        }
    }
}

struct DirectorySettings: Decodable, Sendable {
    var reachable: Bool
}

/// A plugin policy that can be checked ahead: it reports whether its directory is reachable.
struct DirectoryPolicy: AccessPolicy {
    let name = "directory"
    let reachable: Bool

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        .deny(reason: "no one is in the directory")
    }

    func validationIssues() async -> [ValidationIssue] {
        reachable ? [] : [ValidationIssue(message: "the directory cannot be reached")]
    }
}
