import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("DiskLoader")
struct DiskLoaderTests {
    @Test func loadsAFileByItsPathRelativeToTheRoot() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("assets/avatars/alice.png", "alice's bytes")
        let loader = DiskLoader(root: directory.url.appendingPathComponent("assets"))
        #expect(try await loader.load("avatars/alice.png") == Data("alice's bytes".utf8))
    }

    @Test func namesThatOnlyContainDotsOrNonASCIILettersLoad() async throws {
        let directory = try TemporaryDirectory()
        for name in [".hidden", "...", "a..b", "..txt", "café/naïve.txt", "日本/語.txt", "with space.txt", "~"] {
            try directory.write(name, name)
        }
        let loader = DiskLoader(root: directory.url)
        for name in [".hidden", "...", "a..b", "..txt", "café/naïve.txt", "日本/語.txt", "with space.txt", "~"] {
            #expect(try await loader.load(name) == Data(name.utf8))
        }
    }

    @Test func anEmptyFileLoadsAsEmptyData() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("empty", Data())
        #expect(try await DiskLoader(root: directory.url).load("empty") == Data())
    }

    @Test func aLargeFileLoadsWhole() async throws {
        let directory = try TemporaryDirectory()
        var generator = SplitMix64(seed: 42)
        let bytes = Data((0..<300_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        try directory.write("large.bin", bytes)
        #expect(try await DiskLoader(root: directory.url).load("large.bin") == bytes)
    }

    @Test func aMissingFileThrowsNotFoundNamingTheKey() async throws {
        let directory = try TemporaryDirectory()
        let loader = DiskLoader(root: directory.url)
        let error = await #expect(throws: DiskLoaderError.self) {
            try await loader.load("avatars/nobody.png")
        }
        #expect(error == .notFound(key: "avatars/nobody.png"))
        #expect(
            error?.errorDescription
                == "Nothing exists at \"avatars/nobody.png\" under the loader's root directory.")
    }

    @Test func aSymlinkInsideTheRootIsRefusedLikeOneOutsideIt() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("root/real.txt", "real")
        try directory.write("secret.txt", "SECRET")
        try directory.symlink("root/inside", to: "real.txt")
        try directory.symlink("root/outside", to: directory.path("secret.txt"))
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"))
        await #expect(throws: DiskLoaderError.outsideRoot(key: "inside")) { try await loader.load("inside") }
        await #expect(throws: DiskLoaderError.outsideRoot(key: "outside")) {
            try await loader.load("outside")
        }
        #expect(try await loader.load("real.txt") == Data("real".utf8))
    }

    @Test func aSymlinkedDirectoryOnThePathIsRefused() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("root/sub/real.txt", "real")
        try directory.symlink("root/alias", to: "sub")
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"))
        await #expect(throws: DiskLoaderError.outsideRoot(key: "alias/real.txt")) {
            try await loader.load("alias/real.txt")
        }
    }

    @Test func theRootItselfMayBeReachedThroughASymlink() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("real-root/file.txt", "through the root link")
        try directory.symlink("root", to: "real-root")
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"))
        #expect(try await loader.load("file.txt") == Data("through the root link".utf8))
    }

    @Test func aSymlinkSwappedInDuringLoadsNeverYieldsTheSecret() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("secret.txt", "SECRET")
        try directory.write("root/regular.txt", "public")
        try directory.write("root/victim.txt", "public")
        let loader = DiskLoader(root: directory.url.appendingPathComponent("root"))
        let secretPath = directory.path("secret.txt")
        let regular = directory.path("root/regular.txt")
        let victim = directory.path("root/victim.txt")
        let staging = directory.path("root/victim.staging")
        // Flips victim.txt between a regular file and a link to the secret, each time atomically
        // with rename(2), until both states were seen several times (or a bound is reached).
        var regularSeen = 0
        var linkSeen = 0
        let outcome = try await race(
            flipping: { round in
                unlink(staging)
                let made = round % 2 == 0 ? symlink(secretPath, staging) : link(regular, staging)
                return made == 0 && rename(staging, victim) == 0
            },
            until: { _ in
                do {
                    let data = try await loader.load("victim.txt")
                    #expect(
                        data != Data("SECRET".utf8), "a load returned the secret through a swapped-in link")
                    if data == Data("SECRET".utf8) { linkSeen += 1 } else { regularSeen += 1 }
                    #expect(data == Data("public".utf8))
                } catch let error as DiskLoaderError {
                    #expect(error == .outsideRoot(key: "victim.txt"))
                    linkSeen += 1
                }
                return regularSeen >= 10 && linkSeen >= 10
            })
        #expect(!outcome.flipperFailed, "the flipper could not create or rename its links")
        #expect(regularSeen >= 10 && linkSeen >= 10, "the loads did not overlap the swaps")
    }

    @Test func aDirectoryIsNotARegularFile() async throws {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("avatars")
        let loader = DiskLoader(root: directory.url)
        await #expect(throws: DiskLoaderError.notARegularFile(key: "avatars")) {
            try await loader.load("avatars")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFifoIsRefusedWithoutHanging() async throws {
        let directory = try TemporaryDirectory()
        try directory.makeFifo("pipe")
        let loader = DiskLoader(root: directory.url)
        await #expect(throws: DiskLoaderError.notARegularFile(key: "pipe")) { try await loader.load("pipe") }
    }

    @Test func aSocketIsNotARegularFile() async throws {
        // Under /tmp: a socket path must fit in sockaddr_un (104 bytes on Darwin).
        let directory = try TemporaryDirectory(in: URL(fileURLWithPath: "/tmp"))
        let socket = try directory.makeSocket("socket")
        defer { close(socket) }
        let loader = DiskLoader(root: directory.url)
        await #expect(throws: DiskLoaderError.notARegularFile(key: "socket")) {
            try await loader.load("socket")
        }
    }

    @Test func aFileOverTheLimitIsRefusedAndOneAtTheLimitLoads() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("at-limit.bin", Data(repeating: 1, count: 100))
        try directory.write("over-limit.bin", Data(repeating: 1, count: 101))
        let loader = DiskLoader(root: directory.url, maximumFileSize: 100)
        #expect(try await loader.load("at-limit.bin").count == 100)
        let error = await #expect(throws: DiskLoaderError.self) { try await loader.load("over-limit.bin") }
        #expect(error == .tooLarge(key: "over-limit.bin", size: 101, limit: 100))
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() async throws {
        // A file whose content cannot be read (no read permission would not stop root, so this
        // uses a sparse file far larger than memory would allow): the refusal comes from fstat.
        let directory = try TemporaryDirectory()
        let file = try directory.write("sparse.bin", Data())
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1 << 40)
        try handle.close()
        let loader = DiskLoader(root: directory.url, maximumFileSize: 1 << 20)
        await #expect(throws: DiskLoaderError.tooLarge(key: "sparse.bin", size: 1 << 40, limit: 1 << 20)) {
            try await loader.load("sparse.bin")
        }
    }

    #if os(Linux)
        @Test func aFileLongerThanItsReportedSizeIsReadWholeButNeverPastTheLimit() async throws {
            // Files in /proc report a size of 0 yet have content: the read loop, not fstat, decides.
            let loader = DiskLoader(root: URL(fileURLWithPath: "/proc/self"), maximumFileSize: 64)
            let error = await #expect(throws: DiskLoaderError.self) { try await loader.load("status") }
            guard case .tooLarge(let key, let size, let limit) = error else {
                Issue.record("expected tooLarge, got \(String(describing: error))")
                return
            }
            #expect(key == "status" && size == 65 && limit == 64)
            let roomy = DiskLoader(root: URL(fileURLWithPath: "/proc/self"), maximumFileSize: 1 << 20)
            let status = String(decoding: try await roomy.load("status"), as: UTF8.self)
            #expect(status.hasPrefix("Name:"))
        }
    #endif

    @Test func aRemovedRootThrowsRootUnavailable() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("root/file.txt", "here")
        let root = directory.url.appendingPathComponent("root")
        let loader = DiskLoader(root: root)
        #expect(try await loader.load("file.txt") == Data("here".utf8))
        try FileManager.default.removeItem(at: root)
        let error = await #expect(throws: DiskLoaderError.self) { try await loader.load("file.txt") }
        guard case .rootUnavailable(let path, _) = error else {
            Issue.record("expected rootUnavailable, got \(String(describing: error))")
            return
        }
        #expect(path == root.path)
    }

    @Test func aRootReplacedByAnotherDirectoryIsReopenedOnTheNextMiss() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("root/old.txt", "old")
        let root = directory.url.appendingPathComponent("root")
        let loader = DiskLoader(root: root)
        #expect(try await loader.load("old.txt") == Data("old".utf8))
        try FileManager.default.moveItem(at: root, to: directory.url.appendingPathComponent("previous"))
        try directory.write("root/new.txt", "new")
        // The loader still holds the directory it opened, now named "previous"...
        #expect(try await loader.load("old.txt") == Data("old".utf8))
        // ...until a key is missing there: then it sees the path names another directory.
        #expect(try await loader.load("new.txt") == Data("new".utf8))
        await #expect(throws: DiskLoaderError.notFound(key: "old.txt")) { try await loader.load("old.txt") }
    }

    @Test func aRootCreatedAfterTheLoaderIsFound() async throws {
        let directory = try TemporaryDirectory()
        let root = directory.url.appendingPathComponent("later")
        let loader = DiskLoader(root: root)
        let error = await #expect(throws: DiskLoaderError.self) { try await loader.load("file.txt") }
        guard case .rootUnavailable = error else {
            Issue.record("expected rootUnavailable, got \(String(describing: error))")
            return
        }
        try directory.write("later/file.txt", "now")
        #expect(try await loader.load("file.txt") == Data("now".utf8))
    }

    @Test func aRootThatIsAFileThrowsRootUnavailable() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("not-a-directory", "x")
        let error = await #expect(throws: DiskLoaderError.self) { try await DiskLoader(root: file).load("x") }
        guard case .rootUnavailable = error else {
            Issue.record("expected rootUnavailable, got \(String(describing: error))")
            return
        }
    }

    @Test func concurrentLoadsOfManyFilesAllSucceed() async throws {
        let directory = try TemporaryDirectory()
        for index in 0..<32 { try directory.write("files/\(index).txt", "file \(index)") }
        let loader = DiskLoader(root: directory.url)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<256 {
                group.addTask {
                    let index = round % 32
                    let data = try await loader.load("files/\(index).txt")
                    #expect(data == Data("file \(index)".utf8))
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func everyErrorDescribesItselfInASentence() {
        let errors: [DiskLoaderError] = [
            .invalidKey(key: "a/../b", reason: "it contains a \"..\" component"),
            .notFound(key: "a"),
            .notARegularFile(key: "a"),
            .tooLarge(key: "a", size: 10, limit: 5),
            .outsideRoot(key: "a"),
            .rootUnavailable(root: "/srv/assets", reason: "No such file or directory"),
            .spellingMismatch(key: "avatars/alice.png", stored: "Avatars"),
            .io(key: "a", reason: "Input/output error"),
        ]
        let descriptions = errors.compactMap(\.errorDescription)
        #expect(Set(descriptions).count == errors.count)
        for description in descriptions {
            #expect(description.first?.isUppercase == true && description.hasSuffix("."), "\(description)")
        }
        #expect(
            DiskLoaderError.tooLarge(key: "a", size: 10, limit: 5).errorDescription
                == "The file at \"a\" is 10 bytes, more than the loader's limit of 5 bytes; it was neither read "
                + "nor written.")
    }
}
