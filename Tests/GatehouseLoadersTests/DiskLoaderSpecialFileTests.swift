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

@Suite("DiskLoader special files")
struct DiskLoaderSpecialFileTests {
    /// A key naming a fifo at the root and one below it (opened by `openat2` on Linux).
    static let fifoKeys = ["pipe", "sub/pipe"]

    @Test(.timeLimit(.minutes(1)), arguments: Resolution.both, fifoKeys)
    func aFifoWithoutAWriterIsRefusedWithoutBlocking(_ resolution: Resolution, _ key: String) async throws {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("sub")
        try directory.makeFifo(key)
        // A blocking open for reading would wait here until a writer came, that is for ever.
        let loader = DiskLoader(root: directory.url, resolution: resolution.value)
        await #expect(throws: DiskLoaderError.notARegularFile(key: key)) { try await loader.load(key) }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Resolution.both, fifoKeys)
    func aFifoIsRefusedWithoutReadingTheBytesWaitingInIt(_ resolution: Resolution, _ key: String) async throws
    {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("sub")
        try directory.makeFifo(key)
        let fifo = directory.path(key)
        // A reader of our own, so that a writer can open without blocking and its bytes wait in
        // the pipe.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { _ = close(reader) }
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(writer >= 0)
        defer { _ = close(writer) }
        let message = Array("waiting".utf8)
        #expect(write(writer, message, message.count) == message.count)

        let loader = DiskLoader(root: directory.url, resolution: resolution.value)
        await #expect(throws: DiskLoaderError.notARegularFile(key: key)) { try await loader.load(key) }

        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(
            count == message.count && Array(buffer.prefix(message.count)) == message,
            "the load read bytes from the fifo")
    }

    /// The load looks at the name with `fstatat` and refuses the fifo without opening it: a
    /// writer blocked in `open` on it stays blocked (an open for reading, even non-blocking,
    /// would release it).
    @Test(.timeLimit(.minutes(1)), arguments: Resolution.both, fifoKeys)
    func aFifoIsRefusedWithoutReleasingAWriterWaitingToOpenIt(
        _ resolution: Resolution, _ key: String
    ) async throws {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("sub")
        try directory.makeFifo(key)
        let fifo = directory.path(key)
        let writer = LockedState<(started: Bool, opened: Bool, finished: Bool)>((false, false, false))
        // A writer that blocks in open(2) until the fifo has a reader; it writes nothing, so it
        // cannot die of SIGPIPE.
        Thread {
            writer.withLock { $0.started = true }
            let descriptor = open(fifo, O_WRONLY | O_CLOEXEC)
            writer.withLock { $0.opened = true }
            if descriptor >= 0 { _ = close(descriptor) }
            writer.withLock { $0.finished = true }
        }.start()
        while !writer.withLock({ $0.started }) { try await Task.sleep(for: .milliseconds(1)) }
        // Give the writer time to enter open(2) and block there.
        try await Task.sleep(for: .milliseconds(200))

        let loader = DiskLoader(root: directory.url, resolution: resolution.value)
        await #expect(throws: DiskLoaderError.notARegularFile(key: key)) { try await loader.load(key) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(
            !writer.withLock { $0.opened }, "the load opened the fifo for reading and released its writer")

        // Release the writer: open the fifo for reading here, then wait for it to finish.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        while !writer.withLock({ $0.finished }) { try await Task.sleep(for: .milliseconds(1)) }
        if reader >= 0 { _ = close(reader) }
    }

    @Test(arguments: Resolution.both)
    func aDeviceNodeIsNotARegularFile(_ resolution: Resolution) async throws {
        let loader = DiskLoader(root: URL(fileURLWithPath: "/dev"), resolution: resolution.value)
        for key in ["null", "zero"] {
            await #expect(throws: DiskLoaderError.notARegularFile(key: key)) { try await loader.load(key) }
        }
    }

    #if os(Linux)
        /// Device nodes made with mknod(2): one with a driver (1:3, like /dev/null), character and
        /// block devices whose numbers have no driver (their open would fail with ENXIO), a misc
        /// device number no driver registered (its open would fail with ENODEV), each at the root
        /// and below it. The loader looks at each with `fstatat` and opens none, so whatever the
        /// driver would answer, the load is notARegularFile.
        @Test(.enabled(if: geteuid() == 0, "mknod(2) needs root"), arguments: Resolution.both)
        func aDeviceNodeIsNotARegularFileWhateverItsDriverWouldAnswer(_ resolution: Resolution) async throws {
            let directory = try TemporaryDirectory()
            try directory.makeDirectory("sub")
            let devices: [(name: String, type: mode_t, major: UInt32, minor: UInt32)] = [
                ("null-like", S_IFCHR, 1, 3),
                ("char-without-driver", S_IFCHR, 240, 77),
                ("block-without-driver", S_IFBLK, 240, 77),
                ("misc-without-driver", S_IFCHR, 10, 251),
            ]
            for device in devices {
                for key in [device.name, "sub/\(device.name)"] {
                    // Linux's dev_t for small numbers: major in bits 8-19, minor in bits 0-7.
                    let number = dev_t(device.major) << 8 | dev_t(device.minor)
                    guard mknod(directory.path(key), device.type | 0o600, number) == 0 else {
                        Issue.record("mknod \(key) failed: \(String(cString: strerror(errno)))")
                        continue
                    }
                    let loader = DiskLoader(root: directory.url, resolution: resolution.value)
                    await #expect(throws: DiskLoaderError.notARegularFile(key: key)) {
                        try await loader.load(key)
                    }
                    #expect(loader.resolution.usesOpenat2 == resolution.value.usesOpenat2)
                }
            }
        }
    #endif

    #if canImport(Glibc)
        /// A name exchanged with a fifo in one step (`renameat2` with `RENAME_EXCHANGE`), over and
        /// over, while it is loaded: the fifo may be swapped in between the loader's `fstatat`
        /// and its `openat`, and then `fstat` on the opened descriptor must refuse it. A load
        /// returns the file whole or is refused; it never blocks and never reads the fifo (which
        /// would return no bytes: it has no writer). One case at a time: each spins a thread.
        @Test(.serialized, .timeLimit(.minutes(1)), arguments: Resolution.both, ["victim", "sub/victim"])
        func aFifoSwappedInAfterTheLookIsRefusedUnread(_ resolution: Resolution, _ key: String) async throws {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
                Issue.record("the C library has no renameat2")
                return
            }
            let renameat2 = unsafeBitCast(symbol, to: DiskLoaderPathResolutionTests.Renameat2.self)
            let exchange: UInt32 = 1 << 1  // RENAME_EXCHANGE
            let directory = try TemporaryDirectory()
            try directory.write(key, "public")
            try directory.makeFifo(key + ".fifo")
            let loader = DiskLoader(root: directory.url, resolution: resolution.value)
            let victim = directory.path(key)
            let fifo = directory.path(key + ".fifo")
            var regularSeen = 0
            var refusedSeen = 0
            // 20,000 loads meet the gap between the look and the open some tens of times on an
            // idle machine. Every 64 loads the test exchanges the two names itself as well, so
            // both outcomes are seen however little time a busy machine gives the flipper.
            let outcome = try await race(
                flipping: { _ in renameat2(AT_FDCWD, victim, AT_FDCWD, fifo, exchange) == 0 },
                attempts: 20_000,
                until: { number in
                    do {
                        let data = try await loader.load(key)
                        #expect(data == Data("public".utf8), "a load read something other than the file")
                        regularSeen += 1
                    } catch let error as DiskLoaderError {
                        #expect(error == .notARegularFile(key: key), "\(error)")
                        refusedSeen += 1
                    }
                    if number % 64 == 63 {
                        #expect(renameat2(AT_FDCWD, victim, AT_FDCWD, fifo, exchange) == 0)
                    }
                    return false
                })
            #expect(!outcome.flipperFailed, "the flipper could not exchange the file and the fifo")
            #expect(regularSeen >= 10 && refusedSeen >= 10, "the loads did not overlap the swaps")
        }
    #endif
}
