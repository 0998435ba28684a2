import Foundation
import GatehouseCore
import GatehouseLoaders

/// A loader over a dictionary that counts its calls and remembers the keys it was asked for.
final class CountingLoader: ResourceLoading, Sendable {
    private let state: LockedState<(resources: [String: Data], keys: [String])>
    private let missingThrows: Bool

    /// Creates the loader; a key not in `resources` returns its own bytes unless `missingThrows`.
    init(_ resources: [String: Data] = [:], missingThrows: Bool = false) {
        state = LockedState((resources, []))
        self.missingThrows = missingThrows
    }

    func load(_ key: String) async throws -> Data {
        try state.withLock { state in
            state.keys.append(key)
            if let resource = state.resources[key] { return resource }
            if missingThrows { throw ResourceNotFound(key: key) }
            return Data(key.utf8)
        }
    }

    func set(_ resource: Data, for key: String) { state.withLock { $0.resources[key] = resource } }
    var calls: Int { state.withLock { $0.keys.count } }
    var receivedKeys: [String] { state.withLock { $0.keys } }
}

/// A loader whose calls suspend until released, counting how many calls entered it. A call that
/// resumes in a cancelled task throws `CancellationError`, so a test can see a cancelled load.
final class SuspendingLoader: ResourceLoading, Sendable {
    private struct State {
        var entered = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var released = false
        var enteredWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedState(State())
    private let result: @Sendable (String) throws -> Data

    init(result: @escaping @Sendable (String) throws -> Data = { Data($0.utf8) }) {
        self.result = result
    }

    func load(_ key: String) async throws -> Data {
        await withCheckedContinuation { continuation in
            let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.entered += 1
                if state.released {
                    continuation.resume()
                } else {
                    state.waiting.append(continuation)
                }
                let ready = state.enteredWatchers.filter { $0.count <= state.entered }
                state.enteredWatchers.removeAll { $0.count <= state.entered }
                return ready.map(\.continuation)
            }
            for watcher in ready { watcher.resume() }
        }
        try Task.checkCancellation()
        return try result(key)
    }

    /// Returns once at least `count` calls have entered the loader.
    func waitUntilEntered(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.entered >= count { return true }
                state.enteredWatchers.append((count, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Lets every waiting and future call proceed.
    func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    var calls: Int { state.withLock { $0.entered } }
}

/// A policy whose decision can be changed between calls (granting and revoking access),
/// counting how often it was asked.
final class RevocablePolicy: AccessPolicy, Sendable {
    let name = "revocable"
    private let state: LockedState<(allowed: Bool, evaluations: Int)>

    init(allowed: Bool) {
        state = LockedState((allowed, 0))
    }

    func grant() { state.withLock { $0.allowed = true } }
    func revoke() { state.withLock { $0.allowed = false } }
    var evaluations: Int { state.withLock { $0.evaluations } }

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        state.withLock { state in
            state.evaluations += 1
            return state.allowed ? .allow : .deny(reason: "access to \(request.resource) is revoked")
        }
    }
}

/// A counter shared between tasks.
final class Counter: Sendable {
    private let state = LockedState(0)
    func increment() { state.withLock { $0 += 1 } }
    var value: Int { state.withLock { $0 } }
}

struct LoadFailed: Error, Equatable {}

/// A small seeded generator (SplitMix64) for reproducible sequences.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
