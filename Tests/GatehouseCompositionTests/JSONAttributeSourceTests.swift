import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

@testable import GatehouseComposition

/// The built-in `json` attribute source: the names it provides (declared, or the file's own), one
/// bounded read per version of its file, and `whenInvalid`.
@Suite("The json attribute source")
struct JSONAttributeSourceTests {
    static let owners = #"{ "docs/plan.md": { "owner": "alice" } }"#

    /// A source over `owners.json` in `folder`.
    static func source(
        in folder: TemporaryDirectory, declared: Set<String>? = nil, maximumFileSize: Int = 1 << 20,
        whenInvalid: FilePolicy.WhenInvalid = .deny
    ) -> JSONAttributeSource {
        JSONAttributeSource(
            url: folder.file("owners.json"), path: "owners.json", declared: declared,
            maximumFileSize: maximumFileSize, whenInvalid: whenInvalid)
    }

    @Test func theFileIsReadAndParsedOnlyWhenItChanged() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.owners, to: "owners.json")
        let source = Self.source(in: folder)
        for _ in 0..<5 {
            #expect(try await source.attributes(of: "docs/plan.md") == ["owner": "alice"])
            #expect(try await source.attributeNames() == .only(["owner"]))
        }
        #expect(source.loadCount == 1)
        // The change a writer makes: a new version renamed over the old one.
        try folder.write(#"{ "docs/plan.md": { "owner": "bob", "tenant": "acme" } }"#, to: "owners.json")
        #expect(try await source.attributes(of: "docs/plan.md") == ["owner": "bob", "tenant": "acme"])
        #expect(try await source.attributeNames() == .only(["owner", "tenant"]))
        #expect(source.loadCount == 2)
    }

    @Test func withoutDeclaredNamesTheNamesAreEveryNameTheFileGivesAnyResource() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            #"{ "docs/a": { "owner": "alice" }, "docs/b": { "tenant": "acme" }, "docs/c": {} }"#,
            to: "owners.json")
        let source = Self.source(in: folder)
        #expect(try await source.attributeNames() == .only(["owner", "tenant"]))
        #expect(try await source.attributes(of: "docs/unlisted") == [:])
    }

    @Test func declaredNamesAreTheSourcesNamesWhateverTheFileHolds() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.owners, to: "owners.json")
        let source = Self.source(in: folder, declared: ["owner", "tenant"])
        #expect(try await source.attributeNames() == .only(["owner", "tenant"]))
        try FileManager.default.removeItem(at: folder.file("owners.json"))
        #expect(try await source.attributeNames() == .only(["owner", "tenant"]))
    }

    @Test func anEntryHoldingAnUndeclaredNameMakesTheVersionInvalidAndSaysWhich() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(#"{ "docs/plan.md": { "owner": "alice", "ownr": "bob" } }"#, to: "owners.json")
        let source = Self.source(in: folder, declared: ["owner"])
        let error = await #expect(throws: AttributeSourceError.self) {
            try await source.attributes(of: "docs/other.md")
        }
        #expect(
            error?.message
                == #"owners.json: "docs/plan.md".ownr is not among the declared attributes (owner); "#
                + #"add it to "attributes" or remove it from the file"#)
    }

    @Test func aFileOverTheSizeBoundIsRefusedUnreadWithAClearError() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.owners, to: "owners.json")
        let size = Self.owners.utf8.count
        let source = Self.source(in: folder, maximumFileSize: size - 1)
        let error = await #expect(throws: AttributeSourceError.self) {
            try await source.attributes(of: "docs/plan.md")
        }
        #expect(
            error?.message
                == "owners.json: is \(size) bytes, larger than the limit of \(size - 1) bytes (maximumFileSize)"
        )
        #expect(JSONAttributeSource.defaultMaximumFileSize == 16 << 20)
    }

    @Test func whenInvalidDenyFailsWhileTheContentsAreBadAndRecoversWithAFixedVersion() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.owners, to: "owners.json")
        let source = Self.source(in: folder)
        #expect(try await source.attributes(of: "docs/plan.md") == ["owner": "alice"])
        try folder.write(#"{ "docs/plan.md": { "owner": 7 } }"#, to: "owners.json")
        await #expect(throws: AttributeSourceError.self) { try await source.attributes(of: "docs/plan.md") }
        await #expect(throws: AttributeSourceError.self) { try await source.attributeNames() }
        try folder.write(#"{ "docs/plan.md": { "owner": "carol" } }"#, to: "owners.json")
        #expect(try await source.attributes(of: "docs/plan.md") == ["owner": "carol"])
    }

    @Test func keepLastGoodDecidesByTheLastVersionThatParsedButNeverBringsBackADeletedFile() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.owners, to: "owners.json")
        let source = Self.source(in: folder, whenInvalid: .keepLastGood)
        #expect(try await source.attributes(of: "docs/plan.md") == ["owner": "alice"])
        try folder.write(#"{ "docs/plan.md": { "owner": "bob" "#, to: "owners.json")
        #expect(try await source.attributes(of: "docs/plan.md") == ["owner": "alice"])
        #expect(source.loadCount == 2)
        try FileManager.default.removeItem(at: folder.file("owners.json"))
        await #expect(throws: AttributeSourceError.self) { try await source.attributes(of: "docs/plan.md") }
        try folder.write(#"{ "docs/plan.md": { "owner": "bob" "#, to: "owners.json")
        await #expect(throws: AttributeSourceError.self) { try await source.attributes(of: "docs/plan.md") }
    }

    // MARK: From a configuration

    static func configuration(_ source: String) -> String {
        """
        { "services": { "docs": {
            "loader": { "type": "memory", "resources": { "docs/plan.md": "plan" } },
            "resourceAttributes": \(source),
            "gatekeepers": [{ "type": "file", "path": "docs.rules" }] } } }
        """
    }

    /// The `docs` service of `folder`, whose rules let the owner read, for the `acme` tenant.
    static func docs(in folder: TemporaryDirectory, source: String) throws -> ConfiguredService {
        try folder.write("allow * read docs/* if owner={subject} tenant=acme\n", to: "docs.rules")
        try folder.write(configuration(source), to: "gatehouse.json")
        return try Assembler().assemble(contentsOf: folder.file("gatehouse.json")).service(named: "docs")
    }

    static func read(_ subject: String, _ attributes: [String: String]) -> AccessRequest {
        AccessRequest(subject: subject, action: .read, resource: "docs/plan.md", attributes: attributes)
    }

    @Test func declaredNamesAreTheResourcesAloneAndTheCallersOtherAttributesStillCount() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.owners, to: "owners.json")
        let docs = try Self.docs(
            in: folder, source: #"{ "type": "json", "path": "owners.json", "attributes": ["owner"] }"#)
        let allowed = try await docs.decide(Self.read("alice", ["tenant": "acme", "owner": "mallory"]))
        #expect(allowed.isAllowed, "\(allowed)")
        #expect(
            try await !docs.decide(Self.read("mallory", ["tenant": "acme", "owner": "mallory"])).isAllowed)
        #expect(
            docs.description.contains("  resource attributes: json: attributes in owners.json (names owner)"))
    }

    @Test func aConfiguredSizeBoundFailsTheGateNamingTheFileAndTheSetting() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.owners, to: "owners.json")
        let docs = try Self.docs(
            in: folder, source: #"{ "type": "json", "path": "owners.json", "maximumFileSize": 16 }"#)
        let verdict = try await docs.decide(Self.read("alice", ["tenant": "acme"]))
        #expect(verdict.outcome == .failed)
        #expect(verdict.gatekeeper == "(attributes)")
        #expect(
            verdict.reason?.contains(
                "owners.json: is \(Self.owners.utf8.count) bytes, larger than the limit of 16 bytes") == true)
    }

    @Test func theSourcesSettingsAreCheckedAtTheirPlace() {
        let place = "services.s.resourceAttributes"
        let configured = { (settings: String) in
            issues(
                service(
                    gatekeepers: #"[{"type": "alwaysAllow"}]"#,
                    extra: #", "resourceAttributes": {"type": "json", "path": "a.json", \#(settings)}"#))
        }
        #expect(
            configured(#""attributes": ["owner", ""], "maximumFileSize": 0"#)
                == [
                    "\(place).attributes[1]: expected an attribute name, found an empty string",
                    "\(place).maximumFileSize: expected a positive number of bytes, found 0",
                ])
        #expect(
            configured(#""whenInvalid": "keepLastGod""#)
                == [
                    #"\#(place).whenInvalid: unknown value "keepLastGod"; expected "deny" or "keepLastGood"; did you mean "keepLastGood"?"#
                ])
        #expect(configured(#""attributes": [], "whenInvalid": "keepLastGood""#).isEmpty)
    }
}
