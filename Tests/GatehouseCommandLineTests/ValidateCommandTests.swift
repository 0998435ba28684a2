import Foundation
import GatehouseComposition
import GatehouseTestSupport
import Testing

@testable import GatehouseCommandLine

/// `gatehouse validate` on a rules file alone, with rule counts, and every problem of a
/// configuration in one run.
@Suite("gatehouse validate")
struct ValidateCommandTests {
    static let rules = """
        # who may read the docs
        group  editors  alice bob
        allow  @editors  write  docs/*
        allow  *         read   docs/*
        deny   *         read   docs/secret-*
        """

    /// A folder holding `docs.rules` with `text`; the caller removes the folder.
    static func rulesFile(_ text: String) throws -> (folder: TemporaryDirectory, file: URL) {
        let folder = try TemporaryDirectory(configuration: "{}")
        let file = folder.url.appendingPathComponent("docs.rules")
        do {
            try Data(text.utf8).write(to: file)
        } catch {
            folder.cleanUp()
            throw error
        }
        return (folder, file)
    }

    @Test func aRulesFileIsValidatedOnItsOwnWithItsRuleAndGroupCounts() async throws {
        let (folder, file) = try Self.rulesFile(Self.rules)
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", file.path])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == ["\(file.path): valid; 3 rules, 1 group"])
        let json = await Captured.run(["validate", "--json", file.path])
        #expect(json.out.first?.hasSuffix(#""valid":true,"rules":3,"groups":1}"#) == true, "\(json.out)")
    }

    @Test func aBrokenRulesFileOnItsOwnNamesTheLine() async throws {
        let (folder, file) = try Self.rulesFile(Self.rules + "\nallow bob read\n")
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", file.path])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.first?.hasPrefix("\(file.path): docs.rules:6: ") == true, "\(run.err)")
    }

    @Test func aConfigurationIsValidWithTheCountsOfItsRulesAndGroups() async throws {
        let folder = try TemporaryDirectory(
            configuration: #"""
                { "services": { "docs": { "loader": { "type": "memory", "resources": {} },
                  "gatekeepers": [ { "type": "allOf", "policies": [ { "type": "file", "path": "docs.rules" } ] } ],
                  "shadow": [ { "type": "file", "path": "docs.rules" } ] } } }
                """#)
        defer { folder.cleanUp() }
        try Data(Self.rules.utf8).write(to: folder.url.appendingPathComponent("docs.rules"))
        let run = await Captured.run(["validate", folder.configuration])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == ["\(folder.configuration): valid; 1 service, 6 rules, 2 groups: docs"])
    }

    /// Six mistakes of six kinds, on lines 2 to 7.
    static let sixMistakes = """
        group  editors  alice bob
        alow   *         read   docs/*
        allow  bob       read
        deny   *         read   docs/*  if device
        allow  *         read   tenants/{tennant/docs
        allow  @editorz  write  docs/*
        deny   mallory\u{00A0}read   secret/*
        """

    @Test func aRulesFileWithSixMistakesListsSixProblemsInOneRun() async throws {
        let (folder, file) = try Self.rulesFile(Self.sixMistakes)
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", file.path])
        #expect(run.status == 1)
        #expect(
            run.err.map { $0.dropFirst(file.path.count + 2).prefix { $0 != " " } }
                == [
                    "docs.rules:2:", "docs.rules:3:", "docs.rules:4:", "docs.rules:5:", "docs.rules:6:",
                    "docs.rules:7:",
                ],
            "\(run.err.joined(separator: "\n"))")
        #expect(run.err.first?.hasSuffix(#"did you mean "allow"?"#) == true)
    }

    @Test func aRulesFileWithAHundredAndFiftyProblemsListsAHundredAndCountsTheRest() async throws {
        let (folder, file) = try Self.rulesFile(String(repeating: "alow * read docs/*\n", count: 150))
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", file.path])
        #expect(run.status == 1)
        #expect(run.err.count == 101)
        #expect(run.err.last == "\(file.path): docs.rules: and 50 more")
    }

    @Test func aConfigurationListsEveryProblemOfARulesFileItNames() async throws {
        let folder = try TemporaryDirectory(
            configuration: #"""
                { "services": { "docs": { "loader": { "type": "memory", "resources": {} },
                  "gatekeepers": [ { "type": "file", "path": "docs.rules" } ] } } }
                """#)
        defer { folder.cleanUp() }
        try Data(Self.sixMistakes.utf8).write(to: folder.url.appendingPathComponent("docs.rules"))
        let run = await Captured.run(["validate", folder.configuration])
        #expect(run.status == 1)
        #expect(run.err.count == 6, "\(run.err.joined(separator: "\n"))")
        #expect(
            run.err.allSatisfy {
                $0.hasPrefix("\(folder.configuration): services.docs.gatekeepers[0]: docs.rules:")
            })
    }

    @Test func aConfigurationWithNineMistakesListsNineProblemsInOneRun() async throws {
        let folder = try TemporaryDirectory(configuration: SampleConfigurations.nineMistakes)
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", folder.configuration])
        #expect(run.status == 1)
        #expect(run.err.count == 9, "\(run.err.joined(separator: "\n"))")
        #expect(run.err.allSatisfy { $0.hasPrefix("\(folder.configuration): ") })
    }

    static let readingRules = """
        allow  *  read   tenants/{tenant}/*
        deny   *  *      exports/* if device=unmanaged
        allow  *  write  docs/* if owner={subject}
        """

    @Test func aRulesFileOnItsOwnNamesTheAttributesItReads() async throws {
        let (folder, file) = try Self.rulesFile(Self.readingRules)
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", file.path])
        #expect(run.out == ["\(file.path): valid; 3 rules, 0 groups; reads attributes device, owner, tenant"])
        let json = await Captured.run(["validate", "--json", file.path])
        #expect(
            json.out.first?.hasSuffix(#""groups":0,"attributes":["device","owner","tenant"]}"#) == true,
            "\(json.out)")
    }

    @Test func aConfigurationNamesTheAttributesEachRulesFileReadsUnlessItsServiceDeclaresThem()
        async throws
    {
        let folder = try TemporaryDirectory(
            configuration: #"""
                { "services": {
                  "docs": { "loader": { "type": "memory", "resources": {} },
                    "gatekeepers": [ { "type": "file", "path": "docs.rules" } ] },
                  "declared": { "loader": { "type": "memory", "resources": {} },
                    "attributes": ["tenant", "device", "owner"],
                    "gatekeepers": [ { "type": "file", "path": "docs.rules" } ] },
                  "plain": { "loader": { "type": "memory", "resources": {} },
                    "gatekeepers": [ { "type": "file", "path": "plain.rules" } ] } } }
                """#)
        defer { folder.cleanUp() }
        try Data(Self.readingRules.utf8).write(to: folder.url.appendingPathComponent("docs.rules"))
        try Data(Self.rules.utf8).write(to: folder.url.appendingPathComponent("plain.rules"))
        let run = await Captured.run(["validate", folder.configuration])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out == [
                "\(folder.configuration): valid; 3 services, 9 rules, 1 group: docs, declared, plain",
                "services.docs.gatekeepers[0]: docs.rules: 3 rules, 0 groups; reads attributes device, owner, tenant",
            ])
        let json = await Captured.run(["validate", "--json", folder.configuration])
        #expect(
            json.out.first?.hasSuffix(
                #""reads":[{"place":"services.docs.gatekeepers[0]","file":"docs.rules","#
                    + #""attributes":["device","owner","tenant"]}]}"#) == true, "\(json.out)")
    }
}
