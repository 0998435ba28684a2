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

    /// On Linux the load opens the file (non-blocking) before `fstat` says it is a fifo, so a
    /// writer blocked in `open` is released by it (docs/security.md says why: a look before the
    /// open costs a system call per load). What holds: the load fails at once.
    @Test(.timeLimit(.minutes(1)), arguments: Resolution.both, fifoKeys)
    func aFifoIsRefusedAtOnceWhileAWriterWaitsToOpenIt(_ resolution: Resolution, _ key: String) async throws {
        let directory = try TemporaryDirectory()
        try directory.makeDirectory("sub")
        try directory.makeFifo(key)
        let fifo = directory.path(key)
        let writer = LockedState<(started: Bool, finished: Bool)>((false, false))
        // A writer that blocks in open(2) until the fifo has a reader; it writes nothing, so it
        // cannot die of SIGPIPE.
        Thread {
            writer.withLock { $0.started = true }
            let descriptor = open(fifo, O_WRONLY | O_CLOEXEC)
            if descriptor >= 0 { _ = close(descriptor) }
            writer.withLock { $0.finished = true }
        }.start()
        while !writer.withLock({ $0.started }) { try await Task.sleep(for: .milliseconds(1)) }
        // Give the writer time to enter open(2) and block there.
        try await Task.sleep(for: .milliseconds(200))

        let loader = DiskLoader(root: directory.url, resolution: resolution.value)
        await #expect(throws: DiskLoaderError.notARegularFile(key: key)) { try await loader.load(key) }

        // Release the writer if the load did not: open the fifo for reading here, then wait for
        // it to finish.
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
        /// block devices whose numbers have no driver (their open fails with ENXIO), a misc device
        /// number no driver registered (its open fails with ENODEV, which the loader must not
        /// report as an I/O error), each at the root and below it.
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
}
