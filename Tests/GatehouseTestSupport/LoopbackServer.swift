import Foundation
import GatehouseCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One request as the loopback server read it.
public struct ReceivedRequest: Sendable {
    /// `POST`, `GET`, …
    public var method: String
    /// The request target as sent: a path, or a whole URL when asked as a proxy.
    public var path: String
    /// Header names in lower case.
    public var headers: [String: String]
    /// The body, as many bytes as `Content-Length` said.
    public var body: Data

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// What the server does on a connection once it has read the request, in order. After the last
/// step it closes the connection.
public enum ServerStep: Sendable {
    /// Writes bytes.
    case send(Data)
    /// Waits, ending the script early if the client closes the connection meanwhile.
    case pause(Duration)
    /// Closes with a TCP reset (`SO_LINGER` 0) instead of an orderly close.
    case reset
}

/// A scriptable HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests: POSIX sockets, a
/// thread per connection, one request per connection (answers say `Connection: close`). Every
/// wait is bounded, so a server that is never stopped still ends its threads.
public final class LoopbackServer: Sendable {
    private struct State {
        var requests: [ReceivedRequest] = []
        var connections = 0
        /// Connections whose client closed before the script ended.
        var closedByClient = 0
        var stopped = false
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: UInt16
    private let listener: Int32
    private let state = LockedState(State())
    private let script: @Sendable (Int, ReceivedRequest) -> [ServerStep]

    /// Starts listening. With `accepting` false the server never accepts a connection: the
    /// kernel completes the handshake and holds the request, and nothing answers.
    public init(accepting: Bool = true, script: @escaping @Sendable (Int, ReceivedRequest) -> [ServerStep])
        throws
    {
        self.script = script
        let listener = try Self.openListener()
        self.listener = listener
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else { throw POSIXFailure("getsockname") }
        port = UInt16(bigEndian: address.sin_port)
        if accepting {
            // The thread holds the server only while it accepts, so a server the test drops
            // goes away (deinit stops it) and the thread ends.
            Thread { [weak self] in
                while let server = self, server.acceptOne() {}
            }.start()
        }
    }

    /// A server that answers every request with `status` and the JSON `body`.
    public convenience init(status: Int = 200, json body: String) throws {
        try self.init { _, _ in [.send(Self.response(status: status, body: Data(body.utf8)))] }
    }

    deinit {
        stop()
        // Closed only here: the accepting thread holds the server while it uses the descriptor,
        // so no thread can be polling it now, nor accept on a number reused by another socket.
        close(listener)
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String = "/v1/data/gatehouse") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The requests read so far, in order.
    public var requests: [ReceivedRequest] { state.withLock { $0.requests } }
    /// How many clients closed their connection before the script ended.
    public var closedByClient: Int { state.withLock { $0.closedByClient } }

    /// Stops accepting (a connection attempt is then refused); connections in progress end on
    /// their own (every wait is bounded).
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// Waits (polling, at most `limit`) until `condition` holds; whether it did.
    public func waitUntil(
        within limit: Duration = .seconds(5), _ condition: @Sendable (LoopbackServer) -> Bool
    )
        async
        -> Bool
    {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(self)
    }

    /// An HTTP/1.1 response with a JSON body and `Connection: close`.
    public static func response(status: Int, body: Data, contentLength: Int? = nil, headers: [String] = [])
        -> Data
    {
        head(status: status, contentLength: contentLength ?? body.count, headers: headers) + body
    }

    /// The status line and headers alone; `contentLength` nil leaves the length out (the body
    /// then ends when the connection closes).
    public static func head(status: Int, contentLength: Int?, headers: [String] = []) -> Data {
        var lines = [
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")", "Content-Type: application/json",
        ]
        if let contentLength { lines.append("Content-Length: \(contentLength)") }
        lines.append("Connection: close")
        lines += headers
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    // MARK: sockets

    private static func openListener() throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXFailure("socket") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw POSIXFailure("bind/listen")
        }
        return descriptor
    }

    /// Waits up to 50 ms for a connection and serves it on a thread of its own; `false` once
    /// the server is stopped.
    private func acceptOne() -> Bool {
        guard !state.withLock({ $0.stopped }) else { return false }
        guard Self.wait(listener, milliseconds: 50) else { return true }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return true }
        #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let index = state.withLock { state -> Int in
            defer { state.connections += 1 }
            return state.connections
        }
        Thread { [self] in serve(connection, index: index) }.start()
        return true
    }

    private func serve(_ connection: Int32, index: Int) {
        var resetInstead = false
        defer {
            if !resetInstead { close(connection) }
        }
        guard let request = Self.readRequest(connection) else { return }
        state.withLock { $0.requests.append(request) }
        for step in script(index, request) {
            switch step {
            case .send(let data):
                guard Self.sendAll(connection, data) else {
                    state.withLock { $0.closedByClient += 1 }
                    return
                }
            case .pause(let duration):
                if Self.clientCloses(connection, within: duration) {
                    state.withLock { $0.closedByClient += 1 }
                    return
                }
            case .reset:
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(
                    connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout.size(ofValue: linger)))
                close(connection)
                resetInstead = true
                return
            }
        }
        // An orderly end: no more to send.
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Whether `descriptor` became readable within `milliseconds`.
    private static func wait(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Waits `duration`; `true` as soon as the client closes the connection (EOF or an error).
    private static func clientCloses(_ connection: Int32, within duration: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        var byte: UInt8 = 0
        while clock.now < deadline {
            let left = clock.now.duration(to: deadline)
            let milliseconds = Int32(min(50, max(1, left.components.seconds * 1000 + 1)))
            guard wait(connection, milliseconds: milliseconds) else { continue }
            if recv(connection, &byte, 1, 0) <= 0 { return true }
        }
        return false
    }

    private static func sendAll(_ connection: Int32, _ data: Data) -> Bool {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        return data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let sent = send(connection, buffer.baseAddress! + offset, buffer.count - offset, flags)
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes. `nil` when
    /// the client sends no complete request within five seconds.
    private static func readRequest(_ connection: Int32) -> ReceivedRequest? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var headEnd: Int?
        var expected = 0
        while clock.now < deadline {
            if let end = headEnd, buffer.count >= end + expected { break }
            guard wait(connection, milliseconds: 50) else { continue }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
            if headEnd == nil, let end = Self.endOfHead(buffer) {
                headEnd = end
                expected = Self.contentLength(String(decoding: buffer[0..<end], as: UTF8.self))
            }
        }
        guard let end = headEnd, buffer.count >= end + expected else { return nil }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let requestLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return ReceivedRequest(
            method: requestLine.first.map(String.init) ?? "",
            path: requestLine.dropFirst().first.map(String.init) ?? "", headers: headers,
            body: Data(buffer[end..<(end + expected)]))
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        {
            return index + 4
        }
        return nil
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }
}

/// A loopback port that refuses every connection for as long as this value lives: a socket bound
/// to it that never listens. It is held, not closed and handed out, so that no other server in
/// the process can be given the same port meanwhile (without `SO_REUSEADDR` here, no other socket
/// can bind it).
public final class RefusingPort: Sendable {
    /// The port; a connection to 127.0.0.1 on it is refused.
    public let port: UInt16
    private let descriptor: Int32

    /// Binds a fresh port on 127.0.0.1 without listening.
    public init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXFailure("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXFailure("bind")
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }
}

struct POSIXFailure: Error, CustomStringConvertible {
    let call: String
    let code = errno
    init(_ call: String) { self.call = call }
    var description: String { "\(call) failed: errno \(code)" }
}
