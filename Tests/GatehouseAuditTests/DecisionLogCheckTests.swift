import Foundation
import GatehouseAudit
import GatehouseTestSupport
import Testing

/// `DecisionLog.checkOpening(url:)`, what `gatehouse validate` asks of a decision log's path:
/// the error opening would throw, found without creating, opening or changing anything.
@Suite("DecisionLog path checked without opening")
struct DecisionLogCheckTests {
    /// The message of the error `body` throws, or `nil` when it throws none.
    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? DecisionLogError)?.message ?? "not a DecisionLogError: \(error)"
        }
    }

    @Test func aNewFileInAnExistingFolderPassesAndIsNotCreated() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        #expect(Self.message { try DecisionLog.checkOpening(url: folder.file("decisions.jsonl")) } == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func anExistingFilePassesAndIsLeftAsItWas() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write("decisions.jsonl", "{}\n")
        let before = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(Self.message { try DecisionLog.checkOpening(url: file) } == nil)
        let after = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(after[.size] as? Int == before[.size] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    }

    @Test func aMissingFolderSaysWhatOpeningWouldSay() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = folder.file("logs/decisions.jsonl")
        let checked = Self.message { try DecisionLog.checkOpening(url: file) }
        #expect(checked == "cannot open \(file.path): No such file or directory")
        #expect(Self.message { _ = try DecisionLog(url: file) } == checked)
        #expect(!FileManager.default.fileExists(atPath: folder.path("logs")))
    }

    @Test func aFolderThatIsAFileSaysWhatOpeningWouldSay() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write("logs", "not a folder")
        let file = folder.file("logs/decisions.jsonl")
        let checked = Self.message { try DecisionLog.checkOpening(url: file) }
        #expect(checked == "cannot open \(file.path): Not a directory")
        #expect(Self.message { _ = try DecisionLog(url: file) } == checked)
    }

    @Test func aDirectoryAtThePathSaysWhatOpeningWouldSay() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.makeDirectory("decisions.jsonl")
        let file = folder.file("decisions.jsonl")
        let checked = Self.message { try DecisionLog.checkOpening(url: file) }
        #expect(checked?.hasPrefix("cannot open \(file.path): it is a directory, not a regular file") == true)
        #expect(Self.message { _ = try DecisionLog(url: file) } == checked)
    }

    @Test func aLinkAtThePathIsRefusedAsOpeningRefusesIt() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write("real.jsonl", "")
        try folder.symlink("decisions.jsonl", to: "real.jsonl")
        let file = folder.file("decisions.jsonl")
        let checked = Self.message { try DecisionLog.checkOpening(url: file) }
        #expect(checked?.contains("it is a symbolic link") == true)
        #expect(Self.message { _ = try DecisionLog(url: file) } == checked)
    }
}
