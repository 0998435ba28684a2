import Foundation
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `gatehouse validate` reports every problem of a configuration, its decision log's path and its
/// rules files in one run, in file order, and leaves the folder exactly as it found it.
@Suite("gatehouse validate: one pass, no side effects")
struct ValidateWritesNothingTests {
    /// A decision log in a folder that does not exist, written after the services, and a rules
    /// file with six mistakes on lines 2 to 7 (ValidateCommandTests.sixMistakes).
    static let configuration = #"""
        { "services": { "docs": {
            "loader": { "type": "memory", "resources": {} },
            "gatekeepers": [ { "type": "file", "path": "docs.rules" } ] } },
          "decisionLog": { "path": "logs/decisions.jsonl" } }
        """#

    /// Every entry under `folder`: its relative path, mode (type and permissions), size and bytes.
    static func snapshot(_ folder: URL) throws -> [String: String] {
        var entries: [String: String] = [:]
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path) + [""]
        for relative in paths {
            let path = folder.appendingPathComponent(relative).path
            var status = stat()
            guard lstat(path, &status) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            var entry = "mode \(String(status.st_mode, radix: 8)) size \(status.st_size)"
            if status.st_mode & S_IFMT == S_IFREG {
                entry += " bytes " + (try Data(contentsOf: URL(fileURLWithPath: path))).base64EncodedString()
            }
            entries[relative] = entry
        }
        return entries
    }

    /// The folder with the configuration and the broken rules file.
    static func brokenFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try folder.write("gatehouse.json", configuration)
        try folder.write("docs.rules", ValidateCommandTests.sixMistakes)
        return folder
    }

    @Test func aBadDecisionLogPathAndSixRulesFileMistakesAreSevenProblemsInOneRunInFileOrder() async throws {
        let folder = try Self.brokenFolder()
        defer { folder.cleanUp() }
        let file = folder.path("gatehouse.json")
        let run = await Captured.run(["validate", file])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        let places = run.err.map { $0.dropFirst(file.count + 2).prefix { $0 != " " } }
        #expect(
            places
                == Array(repeating: "services.docs.gatekeepers[0]:", count: 6) + ["decisionLog.path:"],
            "\(run.err.joined(separator: "\n"))")
        #expect(run.err.first?.hasPrefix("\(file): services.docs.gatekeepers[0]: docs.rules:2: ") == true)
        #expect(run.err.first?.hasSuffix(#"did you mean "allow"?"#) == true)
        let log = folder.url.appendingPathComponent("logs/decisions.jsonl").standardizedFileURL.path
        #expect(run.err.last == "\(file): decisionLog.path: cannot open \(log): No such file or directory")
    }

    @Test func theSameSevenProblemsInJSON() async throws {
        let folder = try Self.brokenFolder()
        defer { folder.cleanUp() }
        let file = folder.path("gatehouse.json")
        let text = await Captured.run(["validate", file])
        let json = await Captured.run(["validate", "--json", file])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.out.joined().utf8)) as? [String: Any]
        #expect(object?["valid"] as? Bool == false)
        #expect(object?["errors"] as? [String] == text.err.map { String($0.dropFirst(file.count + 2)) })
        #expect((object?["errors"] as? [String])?.count == 7)
    }

    @Test func validateLeavesTheFolderByteForByteUnchanged() async throws {
        let folder = try Self.brokenFolder()
        defer { folder.cleanUp() }
        let before = try Self.snapshot(folder.url)
        _ = await Captured.run(["validate", folder.path("gatehouse.json")])
        _ = await Captured.run(["validate", "--json", folder.path("gatehouse.json")])
        #expect(try Self.snapshot(folder.url) == before)
    }

    @Test func aValidConfigurationWithADecisionLogIsValidatedWithoutCreatingTheLog() async throws {
        let folder = try Self.brokenFolder()
        defer { folder.cleanUp() }
        try folder.makeDirectory("logs")
        try folder.write("docs.rules", "allow * read docs/*\n")
        let before = try Self.snapshot(folder.url)
        let run = await Captured.run(["validate", folder.path("gatehouse.json")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == ["\(folder.path("gatehouse.json")): valid; 1 service, 1 rule, 0 groups: docs"])
        #expect(try Self.snapshot(folder.url) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path("logs/decisions.jsonl")))
    }

    @Test func checkStillOpensTheDecisionLogValidateOnlyChecked() async throws {
        let folder = try Self.brokenFolder()
        defer { folder.cleanUp() }
        try folder.makeDirectory("logs")
        try folder.write("docs.rules", "allow * read docs/*\n")
        let run = await Captured.run(["check", "--config", folder.path("gatehouse.json"), "docs/a"])
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: folder.path("logs/decisions.jsonl")))
    }

    @Test func aMissingKeyIsReportedAfterTheOtherProblemsOfItsObject() async throws {
        // The misspelt key stands in the file; the missing one belongs to the whole object.
        let folder = try TemporaryDirectory(
            configuration: #"""
                { "services": { "s": { "loader": { "type": "memory", "resources": {} },
                  "gatekeepers": [ { "type": "file", "pth": "x.rules", "requireEnd": "yes" } ] } } }
                """#)
        defer { folder.cleanUp() }
        let run = await Captured.run(["validate", folder.configuration])
        #expect(
            run.err.map { $0.dropFirst(folder.configuration.count + 2).prefix { $0 != ":" } } == [
                "services.s.gatekeepers[0].pth", "services.s.gatekeepers[0].requireEnd",
                "services.s.gatekeepers[0].path",
            ],
            "\(run.err.joined(separator: "\n"))")
    }

    @Test func problemsAreInFileOrderNotInTheOrderTheyWereFound() async throws {
        // The loader is written before the gatekeepers, the decision log first, and the second
        // service before the first alphabetically: each problem is reported where it stands.
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write(
            "gatehouse.json",
            #"""
            { "decisionLog": { "path": "missing/decisions.jsonl" },
              "services": {
                "zeta": { "loader": { "type": "dsk" }, "gatekeepers": [ { "type": "file", "path": "z.rules" } ] },
                "alpha": { "gatekeepers": [ { "type": "alowList" } ], "loader": { "type": "memory", "resources": {} } } } }
            """#
        ).path
        try folder.write("z.rules", "alow * read docs/*\n")
        let run = await Captured.run(["validate", file])
        #expect(
            run.err.map { $0.dropFirst(file.count + 2).prefix { $0 != ":" } } == [
                "decisionLog.path", "services.zeta.loader.type", "services.zeta.gatekeepers[0]",
                "services.alpha.gatekeepers[0].type",
            ],
            "\(run.err.joined(separator: "\n"))")
    }
}
