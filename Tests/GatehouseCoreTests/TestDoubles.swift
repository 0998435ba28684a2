import Foundation
import GatehouseCore

/// A loader that counts its calls and remembers the keys it was asked for.
final class SpyLoader: ResourceLoading, @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String] = []
    private let result: @Sendable (String) throws -> Data

    init(result: @escaping @Sendable (String) throws -> Data = { Data($0.utf8) }) {
        self.result = result
    }

    func load(_ key: String) async throws -> Data {
        lock.withLock { keys.append(key) }
        return try result(key)
    }

    var calls: Int { lock.withLock { keys.count } }
    var receivedKeys: [String] { lock.withLock { keys } }
}

/// A policy whose decision can be changed between calls, counting how often it was asked.
final class SwitchPolicy: AccessPolicy, @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var decision: AccessDecision
    private var asked = 0
    private var requests: [AccessRequest] = []

    init(_ name: String, _ decision: AccessDecision) {
        self.name = name
        self.decision = decision
    }

    func set(_ decision: AccessDecision) { lock.withLock { self.decision = decision } }
    var evaluations: Int { lock.withLock { asked } }
    var seen: [AccessRequest] { lock.withLock { requests } }

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        lock.withLock {
            asked += 1
            requests.append(request)
            return decision
        }
    }
}

struct GateBroke: Error, Equatable, CustomStringConvertible {
    var description: String { "the policy store is unreachable" }
}

/// A policy that always throws.
struct ThrowingPolicy: AccessPolicy {
    let name = "throwing"
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        throw GateBroke()
    }
}

/// A policy that cancels the current task, then allows: a cancellation that arrives mid-chain.
struct CancellingPolicy: AccessPolicy {
    let name = "cancelling"
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        withUnsafeCurrentTask { $0?.cancel() }
        return .allow
    }
}

/// An observer that keeps every record.
final class RecordingObserver: AccessObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AccessRecord] = []
    func observe(_ record: AccessRecord) { lock.withLock { stored.append(record) } }
    var records: [AccessRecord] { lock.withLock { stored } }
}

let allow = AccessDecision.allow
func deny(_ reason: String) -> AccessDecision { .deny(reason: reason) }
