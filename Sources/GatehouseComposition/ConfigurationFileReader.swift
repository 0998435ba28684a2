#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Reads the bytes of a configuration file, bounded in size and in time.
///
/// Any file that is not a directory is read: a regular file, and also `/dev/stdin` or the pipe
/// of a shell's `<(...)`, since a person may well generate a configuration; `/dev/null` reads
/// as empty, which ``GatehouseConfiguration`` reports as such. The reader never waits for a
/// pipe to get a writer (a named pipe nobody writes to reads as empty), never reads more than
/// `limit` bytes (so `/dev/zero` is refused, not read forever), and gives up on a pipe or device
/// that has not finished within `patience`.
enum ConfigurationFileReader {
    /// What was wrong, as the message of a ``ConfigurationError/Issue``.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// The largest configuration read: far more than any real one.
    static let maximumSize = 16 << 20

    /// How long a pipe or device may take to deliver the whole configuration.
    static let patience = Duration.seconds(10)

    /// The bytes of the file at `path`.
    ///
    /// - Throws: ``Failure`` when the file cannot be opened or read, is a directory, is larger
    ///   than `limit`, or did not finish within `patience`.
    static func contents(ofFile path: String, limit: Int = maximumSize, patience: Duration = patience)
        throws(Failure) -> [UInt8]
    {
        // O_NONBLOCK: opening a named pipe must not wait for a writer to appear.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw cannotRead(path, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw cannotRead(path, errno) }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw Failure(message: "cannot read \(path): it is a directory; expected a configuration file")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let got = read(descriptor, &chunk, wanted)
            if got > 0 {
                bytes.append(contentsOf: chunk[..<got])
                guard bytes.count <= limit else {
                    throw Failure(
                        message:
                            "the configuration is larger than the limit of \(limit) bytes; expected a configuration file"
                    )
                }
                continue
            }
            if got == 0 { return bytes }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else { throw cannotRead(path, code) }
            // A pipe or device with nothing to read yet: wait for more, up to the deadline.
            let left = clock.now.duration(to: deadline)
            let milliseconds =
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard milliseconds > 0, poll(&poller, 1, Int32(milliseconds)) != 0 else {
                throw Failure(
                    message:
                        "cannot read \(path): it did not end within \(spoken(patience)) (a pipe or device still open); expected a configuration file"
                )
            }
        }
    }

    /// `10 seconds`, `1 second` or `300 ms`.
    private static func spoken(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    private static func cannotRead(_ path: String, _ code: Int32) -> Failure {
        Failure(message: "cannot read \(path): \(String(cString: strerror(code)))")
    }
}
