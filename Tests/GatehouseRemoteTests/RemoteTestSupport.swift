import Foundation
import GatehouseCore
import GatehouseRemote
import Testing

/// The request most tests send.
let aliceReads = AccessRequest(
    subject: "alice", action: "read", resource: "avatars/alice.png", attributes: ["device": "managed"])

/// Runs `body`, returning what it threw (`nil` if nothing) and how long it took.
func timed<T: Sendable>(_ body: () async throws -> T) async -> (error: (any Error)?, elapsed: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    do {
        _ = try await body()
        return (nil, clock.now - start)
    } catch {
        return (error, clock.now - start)
    }
}

/// The kind of a `RemotePolicyError`, or `nil` for any other error.
func remoteKind(_ error: (any Error)?) -> RemotePolicyError.Kind? {
    (error as? RemotePolicyError)?.kind
}

/// A loader of one text, counting its loads.
struct CountingLoader: ResourceLoading {
    let loads = LockedState(0)
    func load(_ key: String) async throws -> String {
        loads.withLock { $0 += 1 }
        return "the resource \(key)"
    }
}

/// The sentence a `RemotePolicyError` describes itself with, or the error as text.
func message(of error: (any Error)?) -> String {
    guard let error else { return "(no error)" }
    return (error as? RemotePolicyError)?.errorDescription ?? String(describing: error)
}
