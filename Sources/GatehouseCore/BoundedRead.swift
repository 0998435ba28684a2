import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

/// The package's one bounded read of a file: never more than a limit in memory (`/dev/zero` is
/// refused, not read forever), never a wait for a pipe to get a writer, and never longer than a
/// patience for a pipe or device that has not ended. Every failure is a ``FileReadError`` with the
/// one set of messages, each to follow the file's name.
package enum BoundedRead {
    /// Which files a read accepts.
    package enum Accepting: Sendable, Hashable {
        /// Only a regular file (a rules file, an attribute file).
        case regularFiles
        /// Anything but a directory: a pipe or device too, read until it ends (a configuration,
        /// `/dev/stdin`).
        case anythingButDirectories
    }

    /// The bytes of the file at `path`, at most `limit`; `expected` names what the file should be
    /// (`"a configuration file"`) in a message, and `patience` is how long a pipe or device may go
    /// on without ending (`nil`: as long as it takes).
    ///
    /// - Throws: ``FileReadError`` when the file cannot be read, is of a kind not accepted, holds
    ///   more than `limit` bytes, or has not ended within `patience`.
    package static func contents(
        ofFile path: String, limit: Int, expected: String, accepting: Accepting = .regularFiles,
        patience: Duration? = nil
    ) throws(FileReadError) -> Data {
        // O_NONBLOCK: opening a pipe must not wait for a writer; reading it polls within patience.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotRead(errno) }
        defer { close(descriptor) }
        return try contents(
            of: descriptor, limit: limit, expected: expected, accepting: accepting, patience: patience)
    }

    /// The bytes of the open file `descriptor` (standard input too), at most `limit`, as
    /// ``contents(ofFile:limit:expected:accepting:patience:)`` reads them.
    ///
    /// - Throws: ``FileReadError`` as ``contents(ofFile:limit:expected:accepting:patience:)``.
    package static func contents(
        of descriptor: Int32, limit: Int, expected: String, accepting: Accepting = .regularFiles,
        patience: Duration? = nil
    ) throws(FileReadError) -> Data {
        let identity = try FileIdentity(descriptor: descriptor)
        if let refusal = identity.refusal(accepting: accepting, expected: expected) { throw refusal }
        if identity.isRegularFile && identity.size > Int64(limit) {
            throw .tooLarge(size: identity.size, limit: limit)
        }
        // One byte more than the limit tells "at the limit" from "over it".
        let bytes = try bytes(of: descriptor, upTo: limit < Int.max ? limit + 1 : limit, patience: patience)
        guard bytes.count <= limit else {
            throw .tooLarge(size: identity.isRegularFile ? Int64(bytes.count) : nil, limit: limit)
        }
        return bytes
    }

    /// Up to `count` bytes of the open file `descriptor`, read until it ends or gives `count`;
    /// `size`, a regular file's size, ends the read at a short read that reaches it.
    ///
    /// - Throws: ``FileReadError`` when a read fails or a pipe has not ended within `patience`.
    package static func bytes(
        of descriptor: Int32, upTo count: Int, size: Int? = nil, patience: Duration? = nil
    )
        throws(FileReadError) -> Data
    {
        let clock = ContinuousClock()
        let deadline = patience.map { clock.now.advanced(by: $0) }
        // Read straight into memory the result then owns: room for the size known and one byte
        // more, else 64 KiB, doubled as it fills, never past `count`.
        var capacity = max(1, min(count, size.map { $0 + 1 } ?? 1 << 16))
        guard var buffer = malloc(capacity) else { throw .cannotRead(ENOMEM) }
        var filled = 0
        while filled < count {
            if filled == capacity {
                capacity = min(max(capacity * 2, 1 << 12), count)
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw .cannotRead(ENOMEM)
                }
                buffer = grown
            }
            let asked = capacity - filled
            let got = read(descriptor, buffer + filled, asked)
            if got > 0 {
                filled += got
                if got < asked && filled == size { break }
                continue
            }
            if got == 0 { break }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                free(buffer)
                throw .cannotRead(code)
            }
            // A pipe or device with nothing to read yet: wait for more, up to the deadline.
            var timeout = Int32(-1)
            if let deadline {
                let left = clock.now.duration(to: deadline)
                timeout = left <= .zero ? 0 : Int32(clamping: milliseconds(left))
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard timeout != 0, poll(&poller, 1, timeout) != 0 else {
                free(buffer)
                throw .didNotEnd(within: patience ?? .zero)
            }
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }

    /// `duration` in whole milliseconds, rounded up.
    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
