import Foundation
import GatehouseCore
import GatehouseLoaders

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

struct LoadFailed: Error, Equatable {}
