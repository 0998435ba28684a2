#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Reads the bytes of any file but a directory (a pipe too), bounded in size and time: it never
/// waits for a pipe to get a writer, reads at most `limit` bytes (`/dev/zero` is refused, not
/// read forever), and gives up on a pipe or device that has not ended within `patience`.
enum ConfigurationFileReader {
    /// What was wrong, as an issue's message.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// The largest configuration read: far more than any real one.
    static let maximumSize = 16 << 20
    static let patience = Duration.seconds(10)

    /// The bytes of the file at `path`; throws a ``Failure`` saying why not.
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
            let milliseconds = ConfigurationDuration.milliseconds(clock.now.duration(to: deadline))
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
        return "\(ConfigurationDuration.milliseconds(duration)) ms"
    }

    private static func cannotRead(_ path: String, _ code: Int32) -> Failure {
        Failure(message: "cannot read \(path): \(String(cString: strerror(code)))")
    }
}
