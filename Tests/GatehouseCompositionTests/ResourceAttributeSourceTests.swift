import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A service's `"resourceAttributes"`: the resources' own attributes, from the built-in `json`
/// source or a registered one, merged into each request before any gatekeeper is asked.
@Suite("Resource attribute sources")
struct ResourceAttributeSourceTests {
    static let rules = """
        allow  *  read   docs/*
        allow  *  write  docs/* if owner={subject}
        """

    static let configuration = """
        { "services": { "docs": {
            "loader": { "type": "memory", "resources": { "docs/plan.md": "plan" } },
            "resourceAttributes": { "type": "json", "path": "owners.json" },
            "gatekeepers": [{ "type": "file", "path": "docs.rules" }] } } }
        """

    /// The `docs` service assembled from `folder`, with `owners` as owners.json (none when `nil`).
    static func docs(in folder: TemporaryDirectory, owners: String?) throws -> ConfiguredService {
        try folder.write(rules, to: "docs.rules")
        try folder.write(configuration, to: "gatehouse.json")
        if let owners { try folder.write(owners, to: "owners.json") }
        return try Assembler().assemble(contentsOf: folder.url.appendingPathComponent("gatehouse.json"))
            .service(named: "docs")
    }

    static func write(_ subject: String, claiming attributes: [String: String] = [:]) -> AccessRequest {
        AccessRequest(subject: subject, action: .write, resource: "docs/plan.md", attributes: attributes)
    }

    @Test func theOwnerFromTheResourcesAttributesMayWriteAndNoOneElse() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let docs = try Self.docs(in: folder, owners: #"{ "docs/plan.md": { "owner": "alice" } }"#)
        #expect(try await docs.decide(Self.write("alice")).isAllowed)
        #expect(try await !docs.decide(Self.write("bob")).isAllowed)
        let written = try await AccessContext.with(subject: "alice") {
            try await docs.load("docs/plan.md", action: "write")
        }
        #expect(written == Data("plan".utf8))
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "bob") {
                try await docs.load("docs/plan.md", action: "write")
            }
        }
    }

    @Test func aCallerClaimingOwnershipCannotOverrideTheResourcesOwner() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let docs = try Self.docs(in: folder, owners: #"{ "docs/plan.md": { "owner": "alice" } }"#)
        #expect(try await !docs.decide(Self.write("bob", claiming: ["owner": "bob"])).isAllowed)
        await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "bob", attributes: ["owner": "bob"]) {
                try await docs.load("docs/plan.md", action: "write")
            }
        }
    }

    @Test func theSourceFileIsReadAtEachDecision() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let docs = try Self.docs(in: folder, owners: #"{ "docs/plan.md": { "owner": "alice" } }"#)
        #expect(try await !docs.decide(Self.write("bob")).isAllowed)
        try folder.write(#"{ "docs/plan.md": { "owner": "bob" } }"#, to: "owners.json")
        #expect(try await docs.decide(Self.write("bob")).isAllowed)
    }

    @Test func aMissingSourceFileFailsTheGateAndSaysWhy() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let docs = try Self.docs(in: folder, owners: nil)
        let verdict = try await docs.decide(Self.write("alice"))
        #expect(verdict.outcome == .failed)
        #expect(verdict.reason?.contains("owners.json: cannot read: No such file or directory") == true)
    }

    @Test func aMalformedSourceFileFailsTheGateAndSaysWhy() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let broken = try Self.docs(in: folder, owners: #"{ "docs/plan.md": { "owner": "alice" "#)
        let verdict = try await broken.decide(Self.write("alice"))
        #expect(verdict.outcome == .failed)
        #expect(verdict.reason?.contains("owners.json:1:") == true)
        #expect(verdict.reason?.contains("invalid JSON") == true)

        try folder.write(#"{ "docs/plan.md": { "owner": 7 } }"#, to: "owners.json")
        let wrongType = try await broken.decide(Self.write("alice"))
        #expect(wrongType.outcome == .failed)
        #expect(wrongType.reason?.contains(#"owners.json: "docs/plan.md".owner must be a string"#) == true)
    }

    @Test func unknownKeysAndBadValuesAreReportedAtTheirPlace() {
        let place = "services.s.resourceAttributes"
        #expect(
            issues(
                service(
                    gatekeepers: #"[{"type": "alwaysAllow"}]"#,
                    extra: #", "resourceAttributes": {"type": "jsn", "path": "a.json"}"#))
                == [
                    #"\#(place).type: unknown attribute source type "jsn" (did you mean "json"?); known: json"#
                ])
        #expect(
            issues(
                service(
                    gatekeepers: #"[{"type": "alwaysAllow"}]"#,
                    extra: #", "resourceAttributes": {"type": "json", "pth": "a.json"}"#))
                == [#"\#(place).pth: unknown key (did you mean "path"?)"#, "\(place).path: missing"])
        #expect(
            issues(
                service(
                    gatekeepers: #"[{"type": "alwaysAllow"}]"#,
                    extra: #", "resourceAttributes": {"type": "json", "path": ""}"#))
                == ["\(place).path: expected a file path, found an empty string"])
        #expect(
            issues(
                service(
                    gatekeepers: #"[{"type": "alwaysAllow"}]"#,
                    extra: #", "resourceAttributes": "owners.json""#))
                == [#"\#(place): expected an object with a "type", found a string"#])
    }

    struct FixedOwner: AttributeSource {
        let owner: String
        func attributes(of resource: String) async throws -> [String: String] { ["owner": owner] }
    }

    struct FixedOwnerSettings: Decodable, Sendable { var owner: String }

    @Test func aRegisteredAttributeSourceFeedsTheGate() async throws {
        var registry = PluginRegistry()
        try registry.registerAttributeSource("fixed", settings: FixedOwnerSettings.self) { settings, _ in
            FixedOwner(owner: settings.owner)
        }
        #expect(registry.attributeSourceTypes == ["fixed", "json"])
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.rules, to: "docs.rules")
        let json = Self.configuration.replacingOccurrences(
            of: #"{ "type": "json", "path": "owners.json" }"#, with: #"{ "type": "fixed", "owner": "carol" }"#
        )
        let docs = try Assembler(registry: registry).assemble(
            json: Data(json.utf8), baseDirectory: folder.url
        )
        .service(named: "docs")
        #expect(try await docs.decide(Self.write("carol")).isAllowed)
        #expect(try await !docs.decide(Self.write("bob", claiming: ["owner": "bob"])).isAllowed)
        #expect(docs.description.contains(#"  resource attributes: fixed owner="carol""#))
    }
}
