import Foundation
import GatehouseCore
import GatehouseLoaders

/// A storing service over a dictionary whose loads read the value first and then wait until
/// released: a load held this way returns what was stored when it started, whatever is stored
/// when it returns. Records every call.
final class HeldStore: ResourceStoring, ResourceListing, Sendable {
    private struct State {
        var contents: [String: Int] = [:]
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
        var heldWatchers: [CheckedContinuation<Void, Never>] = []
        var loads = 0
        var stores = 0
        var removes = 0
        var listings = 0
    }

    private let state = LockedState(State())

    init(_ contents: [String: Int] = [:]) {
        state.withLock { $0.contents = contents }
    }

    /// Makes later loads wait, after reading their value, until ``release()``.
    func hold() { state.withLock { $0.holding = true } }

    /// Lets every held load return, and later loads run through.
    func release() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held.removeAll() }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Returns once a load is held.
    func waitUntilALoadIsHeld() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if !state.held.isEmpty { return true }
                state.heldWatchers.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func load(_ key: String) async throws -> Int {
        let (value, holding) = try state.withLock { state in
            state.loads += 1
            guard let value = state.contents[key] else { throw ResourceNotFound(key: key) }
            return (value, state.holding)
        }
        if holding {
            await withCheckedContinuation { continuation in
                let watchers = state.withLock { state in
                    state.held.append(continuation)
                    defer { state.heldWatchers.removeAll() }
                    return state.heldWatchers
                }
                for watcher in watchers { watcher.resume() }
            }
        }
        return value
    }

    func store(_ resource: Int, for key: String) async throws {
        state.withLock {
            $0.stores += 1
            $0.contents[key] = resource
        }
    }

    func remove(_ key: String) async throws {
        try state.withLock {
            $0.removes += 1
            guard $0.contents.removeValue(forKey: key) != nil else { throw ResourceNotFound(key: key) }
        }
    }

    func keys(under prefix: String) async throws -> [String] {
        state.withLock {
            $0.listings += 1
            return $0.contents.keys.filter { prefix.isEmpty || $0.hasPrefix(prefix + "/") }.sorted()
        }
    }

    var loads: Int { state.withLock { $0.loads } }
    var stores: Int { state.withLock { $0.stores } }
    var removes: Int { state.withLock { $0.removes } }
    var listings: Int { state.withLock { $0.listings } }
}
