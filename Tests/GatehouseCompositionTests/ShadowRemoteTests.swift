import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket on 127.0.0.1 that listens and never accepts: a connection to it is made (the
/// system queues it) and a request sent to it is never answered.
private struct SilentListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            _ = closeSocket(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() {
        _ = closeSocket(descriptor)
    }
}

private func closeSocket(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

@Suite("A shadow remote gatekeeper")
struct ShadowRemoteTests {
    @Test func aShadowRemoteThatNeverAnswersDoesNotDelayTheCallAndIsRecordedAsFailedWhenItTimesOut()
        async throws
    {
        let listener = try SilentListener()
        defer { listener.close() }
        let observer = RecordingObserver()
        let json = service(
            gatekeepers: #"[{ "type": "alwaysAllow" }]"#,
            extra: """
                , "shadow": [ { "type": "remote", "name": "candidate", "protocol": "opa",
                                "url": "http://127.0.0.1:\(listener.port)/v1/data/gatehouse", "timeout": "2s" } ]
                """)
        let service = try Assembler(observer: observer).assemble(
            json: Data(json.utf8), baseDirectory: FileManager.default.temporaryDirectory
        )
        .service(named: "s")
        let clock = ContinuousClock()
        let start = clock.now
        let data = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await service.load("a")
        }
        let callTook = clock.now - start
        #expect(data == Data("A".utf8))
        #expect(observer.records.map(\.isShadow) == [false], "the call returned before its shadow answered")
        #expect(callTook < .seconds(2), "the call took \(callTook)")

        await service.gate.waitForShadowAnswers()
        let records = observer.records
        #expect(records.map(\.isShadow) == [false, true])
        #expect(records[1].verdict.outcome == .failed && records[1].verdict.gatekeeper == "candidate")
        #expect(records[1].verdict.reason != nil && !records[1].isDropped)
        #expect(records[0].requestID == records[1].requestID)
    }
}
