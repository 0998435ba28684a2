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

/// A way for a loader to open keys, named for the test output.
struct Resolution: Sendable, CustomTestStringConvertible {
    let name: String
    let value: PathResolution

    var testDescription: String { name }

    /// The loader's own choice (`openat2` on Linux 5.6 and later) and the component walk.
    static let both = [
        Resolution(name: "preferred", value: .preferred),
        Resolution(name: "component walk", value: .componentWalk),
    ]
}

@Suite("DiskLoader path resolution")
struct DiskLoaderPathResolutionTests {
    @Test(arguments: Resolution.both, malformedKeys + refusedPaths)
    func aHostileKeyIsRefusedWithTheExpectedErrorByEitherResolution(
        _ resolution: Resolution, _ hostile: HostileKey
    ) async throws {
        let fixture = try DiskLoaderRejectionTests.Fixture()
        let loader = DiskLoader(
            root: fixture.directory.url.appendingPathComponent("root"), maximumFileSize: 1024,
            resolution: resolution.value)
        let error = await #expect(throws: DiskLoaderError.self) { try await loader.load(hostile.key) }
        if let error {
            #expect(DiskErrorKind(error) == hostile.expected, "\(error)")
        }
        #expect(try await loader.load("sub/file.txt") == Data("nested".utf8))
    }

    @Test(arguments: Resolution.both)
    func aSymlinkSwappedIntoAnyComponentDuringLoadsNeverYieldsTheSecret(_ resolution: Resolution) async throws
    {
        let directory = try TemporaryDirectory()
        try directory.write("outside/victim/file.txt", "SECRET")
        try directory.write("root/victim/file.txt", "public")
        try directory.write("root/victim/deeper/file.txt", "public")
        let loader = DiskLoader(
            root: directory.url.appendingPathComponent("root"), resolution: resolution.value)
        let victim = directory.path("root/victim")
        let aside = directory.path("root/victim.aside")
        let outside = directory.path("outside/victim")
        // Turns the directory victim into a link to a directory outside the root and back, on its
        // own thread until the loads are done (in two steps each way: between them, nothing is
        // there).
        var regularSeen = 0
        var refusedSeen = 0
        let outcome = try await race(
            flipping: { round in
                round % 2 == 0
                    ? rename(victim, aside) == 0 && symlink(outside, victim) == 0
                    : unlink(victim) == 0 && rename(aside, victim) == 0
            },
            until: { _ in
                for key in ["victim/file.txt", "victim/deeper/file.txt"] {
                    do {
                        let data = try await loader.load(key)
                        #expect(
                            data == Data("public".utf8),
                            "a load returned the secret through a swapped-in link")
                        regularSeen += 1
                    } catch let error as DiskLoaderError {
                        #expect(error == .outsideRoot(key: key) || error == .notFound(key: key), "\(error)")
                        if error == .outsideRoot(key: key) { refusedSeen += 1 }
                    }
                }
                return regularSeen >= 10 && refusedSeen >= 10
            })
        #expect(!outcome.flipperFailed, "the flipper could not rename or link the directory")
        #expect(regularSeen >= 10 && refusedSeen >= 10, "the loads did not overlap the swaps")
    }

    @Test(arguments: Resolution.both)
    func aFileLoadsWholeAtEveryDepthByEitherResolution(_ resolution: Resolution) async throws {
        let directory = try TemporaryDirectory()
        var generator = SplitMix64(seed: 7)
        let bytes = Data((0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let keys = ["top.bin", "a/one.bin", "a/b/two.bin", "a/b/c/d/e/f/g/h/deep.bin"]
        for key in keys { try directory.write(key, bytes) }
        try directory.write("a/b/empty", Data())
        let loader = DiskLoader(root: directory.url, resolution: resolution.value)
        for key in keys {
            #expect(try await loader.load(key) == bytes, "\(key)")
        }
        #expect(try await loader.load("a/b/empty") == Data())
        await #expect(throws: DiskLoaderError.notARegularFile(key: "a/b/c")) {
            try await loader.load("a/b/c")
        }
    }

    /// The loader opens the directory up to the key's last `/` and the file after it: keys whose
    /// last `/` falls at every offset of the first sixteen bytes (and after a folder before it)
    /// each load their own file.
    @Test(arguments: Resolution.both)
    func aFileLoadsWhereverTheLastSlashFallsInTheKey(_ resolution: Resolution) async throws {
        let directory = try TemporaryDirectory()
        var keys: [String] = []
        for folder in 1...17 {
            for name in [1, 2, 7, 8, 9, 15, 16, 17] {
                let key = String(repeating: "d", count: folder) + "/" + String(repeating: "f", count: name)
                keys += [key, "x/" + key]
            }
        }
        for key in keys { try directory.write(key, key) }
        let loader = DiskLoader(root: directory.url, resolution: resolution.value)
        for key in keys {
            #expect(try await loader.load(key) == Data(key.utf8), "\(key)")
        }
    }

    #if canImport(Glibc)
        @Test func theLoaderKeepsUsingOpenat2ExactlyWhenTheKernelOffersIt() async throws {
            let directory = try TemporaryDirectory()
            try directory.write("sub/file.txt", "nested")
            let loader = DiskLoader(root: directory.url)
            #expect(loader.resolution.usesOpenat2)
            #expect(try await loader.load("sub/file.txt") == Data("nested".utf8))
            // openat2 came with Linux 5.6.
            var names = utsname()
            uname(&names)
            let release = withUnsafeBytes(of: &names.release) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            let version = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
            let kernelHasOpenat2 = version.lexicographicallyPrecedes([5, 6]) == false
            #expect(loader.resolution.usesOpenat2 == kernelHasOpenat2, "kernel \(release)")
        }

        @Test(arguments: [
            (
                ENOSYS,
                { _, _, _, _ in
                    errno = ENOSYS
                    return -1
                } as Openat2Call
            ),
            (
                EPERM,
                { _, _, _, _ in
                    errno = EPERM
                    return -1
                }
            ),
            (
                E2BIG,
                { _, _, _, _ in
                    errno = E2BIG
                    return -1
                }
            ),
        ])
        func aKernelWithoutOpenat2SwitchesTheLoaderToTheComponentWalkForGood(
            _ code: Int32, _ unavailable: Openat2Call
        ) async throws {
            let directory = try TemporaryDirectory()
            try directory.write("sub/file.txt", "nested")
            try directory.write("sub/other.txt", "other")
            let loader = DiskLoader(root: directory.url, resolution: .openat2(call: unavailable))
            #expect(try await loader.load("sub/file.txt") == Data("nested".utf8), "errno \(code)")
            #expect(!loader.resolution.usesOpenat2)
            #expect(try await loader.load("sub/other.txt") == Data("other".utf8))
            await #expect(throws: DiskLoaderError.notFound(key: "sub/missing")) {
                try await loader.load("sub/missing")
            }
        }

        @Test func anOpenat2RetryRequestWalksTheComponentsForThatLoadOnly() async throws {
            let directory = try TemporaryDirectory()
            try directory.write("sub/file.txt", "nested")
            let loader = DiskLoader(
                root: directory.url,
                resolution: .openat2 { _, _, _, _ in
                    errno = EAGAIN
                    return -1
                })
            #expect(try await loader.load("sub/file.txt") == Data("nested".utf8))
            #expect(loader.resolution.usesOpenat2)
        }

        @Test(arguments: [
            (
                DiskErrorKind.outsideRoot,
                { _, _, _, _ in
                    errno = ELOOP
                    return -1
                } as Openat2Call
            ),
            (
                .outsideRoot,
                { _, _, _, _ in
                    errno = EXDEV
                    return -1
                }
            ),
            (
                .notFound,
                { _, _, _, _ in
                    errno = ENOENT
                    return -1
                }
            ),
            (
                .notFound,
                { _, _, _, _ in
                    errno = ENOTDIR
                    return -1
                }
            ),
            (
                .notARegularFile,
                { _, _, _, _ in
                    errno = ENXIO
                    return -1
                }
            ),
            (
                .io,
                { _, _, _, _ in
                    errno = EACCES
                    return -1
                }
            ),
        ])
        func anOpenat2FailureIsTheErrorTheComponentWalkWouldGive(
            _ expected: DiskErrorKind, _ failing: Openat2Call
        ) async throws {
            let directory = try TemporaryDirectory()
            try directory.write("sub/file.txt", "nested")
            let loader = DiskLoader(root: directory.url, resolution: .openat2(call: failing))
            let error = await #expect(throws: DiskLoaderError.self) { try await loader.load("sub/file.txt") }
            if let error {
                #expect(DiskErrorKind(error) == expected, "\(error)")
            }
            #expect(loader.resolution.usesOpenat2)
        }

        /// The paths that the stand-in of
        /// ``openat2OpensOnlyTheDirectoryOfAKeyAndNothingForReading()`` was given.
        static let openat2Paths = LockedState<[String]>([])

        /// A stand-in for `openat2` that records each path, refuses any open that is not
        /// `O_PATH` (`EIO`, as a device's driver might), and resolves the path with a plain
        /// `openat` (no resolve flags) otherwise: `openat2` resolves the directory of a key,
        /// with `O_PATH`, and the file in it is looked at and opened by the loader itself.
        @Test func openat2OpensOnlyTheDirectoryOfAKeyAndNothingForReading() async throws {
            Self.openat2Paths.withLock { $0 = [] }
            let directory = try TemporaryDirectory()
            try directory.write("sub/file.txt", "nested")
            try directory.write("sub/deeper/file.txt", "deeper")
            try directory.makeFifo("sub/pipe")
            let loader = DiskLoader(
                root: directory.url,
                resolution: .openat2 { directory, path, flags, _ in
                    let path = String(cString: path)
                    DiskLoaderPathResolutionTests.openat2Paths.withLock { $0.append(path) }
                    guard flags & 0o10000000 != 0 else {
                        errno = EIO
                        return -1
                    }
                    return Int(openat(directory, path, Int32(flags)))
                })
            #expect(try await loader.load("sub/file.txt") == Data("nested".utf8))
            #expect(try await loader.load("sub/deeper/file.txt") == Data("deeper".utf8))
            for key in ["sub/pipe", "sub/deeper"] {
                await #expect(throws: DiskLoaderError.notARegularFile(key: key)) {
                    try await loader.load(key)
                }
            }
            #expect(Self.openat2Paths.withLock { $0 } == ["sub", "sub/deeper", "sub", "sub"])
            #expect(loader.resolution.usesOpenat2)
        }

        @Test func aKeyOfOneComponentIsOpenedWithoutOpenat2() async throws {
            let directory = try TemporaryDirectory()
            try directory.write("file.txt", "top")
            // A stand-in that would switch the loader to the walk, had it been called.
            let loader = DiskLoader(
                root: directory.url,
                resolution: .openat2 { _, _, _, _ in
                    errno = ENOSYS
                    return -1
                })
            #expect(try await loader.load("file.txt") == Data("top".utf8))
            #expect(loader.resolution.usesOpenat2)
        }
    #endif
}

#if canImport(Glibc)
    extension DiskLoaderPathResolutionTests {
        /// `renameat2(2)` (not exported by the Swift overlay of the C library), found at run time.
        typealias Renameat2 =
            @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) ->
            Int32

        @Test(arguments: Resolution.both)
        func aDirectorySwappedAtomicallyWithALinkIsReadOrRefusedAsOutsideRootByEitherResolution(
            _ resolution: Resolution
        ) async throws {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
                Issue.record("the C library has no renameat2")
                return
            }
            let renameat2 = unsafeBitCast(symbol, to: Renameat2.self)
            let exchange: UInt32 = 1 << 1  // RENAME_EXCHANGE
            let directory = try TemporaryDirectory()
            try directory.write("outside/victim/file.txt", "SECRET")
            try directory.write("outside/victim/deeper/file.txt", "SECRET")
            try directory.write("root/victim/file.txt", "public")
            try directory.write("root/victim/deeper/file.txt", "public")
            try directory.symlink("root/victim.link", to: directory.path("outside/victim"))
            let loader = DiskLoader(
                root: directory.url.appendingPathComponent("root"), resolution: resolution.value)
            let victim = directory.path("root/victim")
            let link = directory.path("root/victim.link")
            // Exchanges the directory victim with a link to a directory outside the root, in one
            // step each time: at every moment victim is the directory or the link, never nothing.
            var regularSeen = 0
            var refusedSeen = 0
            let outcome = try await race(
                flipping: { _ in
                    renameat2(AT_FDCWD, victim, AT_FDCWD, link, exchange) == 0
                },
                until: { _ in
                    for key in ["victim/file.txt", "victim/deeper/file.txt"] {
                        do {
                            let data = try await loader.load(key)
                            #expect(
                                data == Data("public".utf8),
                                "a load returned the secret through a swapped-in link")
                            regularSeen += 1
                        } catch let error as DiskLoaderError {
                            #expect(error == .outsideRoot(key: key), "\(error)")
                            refusedSeen += 1
                        }
                    }
                    return regularSeen >= 100 && refusedSeen >= 100
                })
            #expect(!outcome.flipperFailed, "the flipper could not exchange the directory and the link")
            #expect(regularSeen >= 100 && refusedSeen >= 100, "the loads did not overlap the swaps")
            #expect(loader.resolution.usesOpenat2 == resolution.value.usesOpenat2)
        }
    }
#endif
