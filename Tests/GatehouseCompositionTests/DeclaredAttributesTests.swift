import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A service's `"attributes"`: validation flags each placeholder and condition of its rules
/// files that names an attribute the service does not declare.
@Suite("Declared attributes")
struct DeclaredAttributesTests {
    static let rules = """
        # documents
        allow  *  read   tenants/{tennant}/*
        allow  *  write  docs/* if owner={subject}
        deny   *  *      exports/* if devce=managed
        allow  *  read   users/{subject}/*
        allow  *  read   shared/{tenant}/* if region=eu
        """

    static func configuration(attributes: String) -> String {
        """
        { "services": { "docs": {
            "loader": { "type": "memory", "resources": {} },
            "attributes": \(attributes),
            "gatekeepers": [{ "type": "allOf", "policies": [
                { "type": "alwaysAllow" }, { "type": "file", "path": "docs.rules" } ] }] } } }
        """
    }

    @Test func everyUndeclaredPlaceholderAndConditionIsFlaggedWithADidYouMean() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.rules, to: "docs.rules")
        let issues = try await ValidationTests.validationIssues(
            Self.configuration(attributes: #"["tenant", "device", "owner"]"#), in: folder)
        let place = "services.docs.gatekeepers[0].policies[1]"
        #expect(
            issues == [
                "\(place): docs.rules:2: the placeholder {tennant} names the attribute \"tennant\", "
                    + "which is not declared (did you mean \"tenant\"?)",
                "\(place): docs.rules:4: the condition devce=managed names the attribute \"devce\", "
                    + "which is not declared (did you mean \"device\"?)",
                "\(place): docs.rules:6: the condition region=eu names the attribute \"region\", "
                    + "which is not declared; the declared ones are tenant, device, owner",
            ])
    }

    /// The declaration is handed to the service's rules files: one that names another attribute
    /// is invalid, so the gate denies rather than letting the rule silently never match.
    @Test func aRulesFileNamingAnUndeclaredAttributeFailsTheServicesDecisions() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write("allow * read tenants/{tennant}/*\n", to: "docs.rules")
        let docs = try Assembler().assemble(
            contentsOf: try folder.write(Self.configuration(attributes: #"["tenant"]"#), to: "g.json")
        ).service(named: "docs")
        let verdict = try await docs.decide(
            AccessRequest(subject: "alice", resource: "tenants/acme/a", attributes: ["tenant": "acme"]))
        #expect(verdict.outcome == .failed)
        #expect(verdict.reason?.contains("docs.rules:1: the placeholder {tennant}") == true, "\(verdict)")
    }

    @Test func withoutADeclarationNothingIsFlagged() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.rules, to: "docs.rules")
        let json = Self.configuration(attributes: "null").replacingOccurrences(
            of: #""attributes": null,"#, with: "")
        #expect(try await ValidationTests.validationIssues(json, in: folder).isEmpty)
    }

    @Test func aDeclarationMustBeAnArrayOfNames() {
        #expect(
            issues(
                service(
                    gatekeepers: #"[{ "type": "alwaysAllow" }]"#, extra: #", "attributes": ["tenant", 3]"#))
                == [
                    "services.s.attributes[1]: expected an attribute name (a non-empty string), found a number"
                ])
    }
}

@Suite("The decision log's mask in a configuration")
struct ConfiguredMaskTests {
    @Test func aMaskedValueAppearsInNoDenialOrVerdictOfAnAssembledService() async throws {
        let json = """
            { "services": { "docs": { "loader": { "type": "memory", "resources": { "a": "A" } },
                "gatekeepers": [{ "type": "alwaysDeny", "reason": "closed" }] } },
              "decisionLog": { "path": "decisions.jsonl", "mask": ["token"] } }
            """
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let observer = RecordingObserver()
        let services = try Assembler(observer: observer).assemble(
            contentsOf: try folder.write(json, to: "g.json"))
        let docs = try services.service(named: "docs")
        let error = await #expect(throws: AccessDenied.self) {
            try await AccessContext.with(subject: "alice", attributes: ["token": "s3cret"]) {
                try await docs.load("a")
            }
        }
        await services.decisionLog?.close()
        let log = String(
            decoding: try Data(contentsOf: folder.url.appendingPathComponent("decisions.jsonl")),
            as: UTF8.self)
        #expect(error?.request.attributes["token"] == "(masked)")
        #expect(observer.records.first?.request.attributes["token"] == "(masked)")
        #expect(!log.contains("s3cret") && log.contains("/input/attributes/token"))
    }
}
