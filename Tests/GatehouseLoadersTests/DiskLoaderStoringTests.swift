import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

/// Both ways of opening a key's folder: `openat2` where the platform has it, and the walk.
private let resolutions: [PathResolution] = [.preferred, .componentWalk]

/// The names in the folder at `url`, sorted.
private func entries(_ url: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
}

@Suite("DiskLoader: store, remove, list")
struct DiskLoaderStoringTests {
    @Test(arguments: resolutions)
    func aStoredFileIsWhatTheNextLoadReturnsAndNoTemporaryFileRemains(_ resolution: PathResolution)
        async throws
    {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("docs/2026")
        let loader = DiskLoader(root: directory.url, resolution: resolution)
        try await loader.store(Data("one".utf8), for: "docs/2026/plan.txt")
        #expect(try await loader.load("docs/2026/plan.txt") == Data("one".utf8))
        try await loader.store(Data("two, longer".utf8), for: "docs/2026/plan.txt")
        #expect(try await loader.load("docs/2026/plan.txt") == Data("two, longer".utf8))
        try await loader.store(Data(), for: "top.txt")
        #expect(try await loader.load("top.txt") == Data())
        #expect(try entries(directory.url.appendingPathComponent("docs/2026")) == ["plan.txt"])
    }

    @Test(arguments: resolutions)
    func aWriteCreatesNoFolderAndNamesTheMissingOne(_ resolution: PathResolution) async throws {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("docs")
        let loader = DiskLoader(root: directory.url, resolution: resolution)
        let error = await #expect(throws: DiskLoaderError.self) {
            try await loader.store(Data("x".utf8), for: "docs/new/deeper/plan.txt")
        }
        if resolution.usesOpenat2 {
            #expect(error == .missingFolder(key: "docs/new/deeper/plan.txt", folder: "docs/new/deeper"))
        } else {
            #expect(error == .missingFolder(key: "docs/new/deeper/plan.txt", folder: "docs/new"))
        }
        #expect(error?.errorDescription?.contains("creates none") == true)
        #expect(try entries(directory.url.appendingPathComponent("docs")) == [])
    }

    @Test(arguments: resolutions)
    func writesAndRemovesKeepThePathRules(_ resolution: PathResolution) async throws {
        let directory = try TemporaryDirectory()
        let loader = DiskLoader(root: directory.url, resolution: resolution)
        for key in ["/etc/passwd", "../outside", "a/../b", "a//b", "a/", "", "./a", "a\\b", "a\u{0}b"] {
            await #expect(throws: DiskLoaderError.self) { try await loader.store(Data(), for: key) }
            await #expect(throws: DiskLoaderError.self) { try await loader.remove(key) }
            do {
                try await loader.store(Data(), for: key)
            } catch let error as DiskLoaderError {
                guard case .invalidKey = error else {
                    Issue.record("\(key): expected invalidKey, got \(error)")
                    continue
                }
            }
        }
        #expect(try entries(directory.url) == [])
    }

    @Test(arguments: resolutions)
    func aWriteThroughALinkedFolderIsRefused(_ resolution: PathResolution) async throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try directory.makeDirectory("root/docs")
        try directory.symlink("root/docs/out", to: outside.url.path)
        try directory.symlink("root/inside", to: "docs")
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"), resolution: resolution)
        for key in ["docs/out/plan.txt", "inside/plan.txt"] {
            let error = await #expect(throws: DiskLoaderError.self) {
                try await loader.store(Data("x".utf8), for: key)
            }
            #expect(error == .outsideRoot(key: key))
            let removal = await #expect(throws: DiskLoaderError.self) { try await loader.remove(key) }
            #expect(removal == .outsideRoot(key: key))
        }
        #expect(try entries(outside.url) == [])
        #expect(try entries(directory.url.appendingPathComponent("root/docs")) == ["out"])
    }

    @Test func aLinkAtTheKeyIsNeitherWrittenThroughNorReplacedNorRemoved() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("secret", "secret")
        try directory.makeDirectory("root")
        try directory.symlink("root/link", to: directory.path("secret"))
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"))
        let error = await #expect(throws: DiskLoaderError.self) {
            try await loader.store(Data("x".utf8), for: "link")
        }
        #expect(error == .outsideRoot(key: "link"))
        let removal = await #expect(throws: DiskLoaderError.self) { try await loader.remove("link") }
        #expect(removal == .outsideRoot(key: "link"))
        #expect(try String(contentsOfFile: directory.path("secret"), encoding: .utf8) == "secret")
        #expect(try entries(directory.url.appendingPathComponent("root")) == ["link"])
    }

    @Test func aDirectoryAtTheKeyIsRefusedAndTheTemporaryFileIsRemoved() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("docs/plan.txt/inner", "kept")
        let loader = DiskLoader(root: directory.url)
        let error = await #expect(throws: DiskLoaderError.self) {
            try await loader.store(Data("x".utf8), for: "docs/plan.txt")
        }
        #expect(error == .notARegularFile(key: "docs/plan.txt"))
        #expect(try entries(directory.url.appendingPathComponent("docs")) == ["plan.txt"])
        let removal = await #expect(throws: DiskLoaderError.self) { try await loader.remove("docs/plan.txt") }
        #expect(removal == .notARegularFile(key: "docs/plan.txt"))
        #expect(try entries(directory.url.appendingPathComponent("docs/plan.txt")) == ["inner"])
    }

    @Test func anEmptyDirectoryAtTheKeyIsRefusedToo() async throws {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("empty")
        let loader = DiskLoader(root: directory.url)
        let error = await #expect(throws: DiskLoaderError.self) {
            try await loader.store(Data("x".utf8), for: "empty")
        }
        #expect(error == .notARegularFile(key: "empty"))
        #expect(try entries(directory.url) == ["empty"])
    }

    @Test func aFifoAtTheKeyIsRefused() async throws {
        let directory = try TemporaryDirectory()
        try directory.makeFifo("pipe")
        let loader = DiskLoader(root: directory.url)
        await #expect(throws: DiskLoaderError.notARegularFile(key: "pipe")) {
            try await loader.store(Data("x".utf8), for: "pipe")
        }
        await #expect(throws: DiskLoaderError.notARegularFile(key: "pipe")) {
            try await loader.remove("pipe")
        }
        #expect(try entries(directory.url) == ["pipe"])
    }

    @Test func aResourceOverTheSizeLimitIsRefusedBeforeAnythingIsWritten() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("plan.txt", "old")
        let loader = DiskLoader(root: directory.url, maximumFileSize: 8)
        try await loader.store(Data(repeating: 0x41, count: 8), for: "plan.txt")
        let error = await #expect(throws: DiskLoaderError.self) {
            try await loader.store(Data(repeating: 0x42, count: 9), for: "plan.txt")
        }
        #expect(error == .tooLarge(key: "plan.txt", size: 9, limit: 8))
        #expect(try await loader.load("plan.txt") == Data(repeating: 0x41, count: 8))
        #expect(try entries(directory.url) == ["plan.txt"])
    }

    @Test func removeUnlinksARegularFileAndThrowsNotFoundAfterwards() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("docs/plan.txt", "x")
        let loader = DiskLoader(root: directory.url)
        try await loader.remove("docs/plan.txt")
        await #expect(throws: DiskLoaderError.notFound(key: "docs/plan.txt")) {
            try await loader.load("docs/plan.txt")
        }
        await #expect(throws: DiskLoaderError.notFound(key: "docs/plan.txt")) {
            try await loader.remove("docs/plan.txt")
        }
        await #expect(throws: DiskLoaderError.missingFolder(key: "nope/plan.txt", folder: "nope")) {
            try await loader.remove("nope/plan.txt")
        }
    }

    @Test func aConcurrentReaderSeesTheOldOrTheNewFileNeverAPart() async throws {
        let directory = try TemporaryDirectory()
        let small = Data(repeating: 0x41, count: 40_000)
        let large = Data(repeating: 0x42, count: 200_000)
        try directory.write("file", small)
        let loader = DiskLoader(root: directory.url)
        let writer = Task.detached {
            for round in 0..<200 { try await loader.store(round % 2 == 0 ? large : small, for: "file") }
        }
        let reader = Task.detached { () -> (reads: Int, torn: Int) in
            var reads = 0
            var torn = 0
            while true {
                let data = try await loader.load("file")
                reads += 1
                if data != small && data != large { torn += 1 }
                if reads >= 300 { break }
            }
            return (reads, torn)
        }
        try await writer.value
        let outcome = try await reader.value
        #expect(outcome.torn == 0)
        #expect(try entries(directory.url) == ["file"])
    }
}

@Suite("DiskLoader: listing")
struct DiskLoaderListingTests {
    @Test(arguments: resolutions)
    func aListingIsRecursiveSortedAndRelativeToTheRoot(_ resolution: PathResolution) async throws {
        let directory = try TemporaryDirectory()
        for name in ["docs/b.txt", "docs/a.txt", "docs/2026/c.txt", "docsx/d.txt", "top.txt", "docs/.hidden"]
        {
            try directory.write(name, name)
        }
        try directory.makeDirectory("docs/empty")
        let loader = DiskLoader(root: directory.url, resolution: resolution)
        #expect(
            try await loader.keys(under: "docs") == [
                "docs/.hidden", "docs/2026/c.txt", "docs/a.txt", "docs/b.txt",
            ])
        #expect(try await loader.keys(under: "docs/2026") == ["docs/2026/c.txt"])
        #expect(
            try await loader.keys(under: "") == [
                "docs/.hidden", "docs/2026/c.txt", "docs/a.txt", "docs/b.txt", "docsx/d.txt", "top.txt",
            ])
    }

    @Test(arguments: resolutions)
    func aListingSkipsLinksSpecialFilesAndTemporaryFiles(_ resolution: PathResolution) async throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try outside.write("secret.txt", "secret")
        try directory.write("root/docs/a.txt", "a")
        try directory.write("root/docs/.gatehouse-partial-1234", "half")
        try directory.symlink("root/docs/out", to: outside.url.path)
        try directory.symlink("root/docs/file-link", to: outside.path("secret.txt"))
        try directory.symlink("root/docs/inner-link", to: "a.txt")
        try directory.makeFifo("root/docs/pipe")
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"), resolution: resolution)
        #expect(try await loader.keys(under: "docs") == ["docs/a.txt"])
        #expect(try await loader.keys(under: "") == ["docs/a.txt"])
    }

    @Test(arguments: resolutions)
    func aPrefixThatBreaksTheRulesIsMissingOrALinkIsRefused(_ resolution: PathResolution) async throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try outside.write("secret.txt", "secret")
        try directory.write("root/docs/a.txt", "a")
        try directory.symlink("root/out", to: outside.url.path)
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"), resolution: resolution)
        for prefix in ["docs/", "/docs", "../root", "docs/../docs", "a\u{1}"] {
            let error = await #expect(throws: DiskLoaderError.self) { try await loader.keys(under: prefix) }
            guard case .invalidKey = error else {
                Issue.record("\(prefix): expected invalidKey, got \(String(describing: error))")
                continue
            }
        }
        await #expect(throws: DiskLoaderError.outsideRoot(key: "out")) { try await loader.keys(under: "out") }
        await #expect(throws: DiskLoaderError.missingFolder(key: "nope", folder: "nope")) {
            try await loader.keys(under: "nope")
        }
        await #expect(throws: DiskLoaderError.missingFolder(key: "docs/a.txt", folder: "docs/a.txt")) {
            try await loader.keys(under: "docs/a.txt")
        }
    }

    @Test func storedAndRemovedKeysShowInTheNextListing() async throws {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("docs")
        let loader = DiskLoader(root: directory.url)
        try await loader.store(Data("a".utf8), for: "docs/a")
        try await loader.store(Data("b".utf8), for: "docs/b")
        try await loader.remove("docs/a")
        #expect(try await loader.keys(under: "docs") == ["docs/b"])
    }
}
