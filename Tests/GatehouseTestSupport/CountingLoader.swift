import Foundation
import GatehouseCore

/// A loader over a dictionary that counts its calls and remembers the keys it was asked for.
///
/// A key not in the dictionary loads what `result` gives for it: its own bytes
/// (`Data(key.utf8)`) unless told otherwise, so a test that only counts calls needs no resources.
public final class CountingLoader: ResourceLoading, @unchecked Sendable {
    private let lock = NSLock()
    private let resources: [String: Data]
    private let result: @Sendable (String) throws -> Data
    private var keys: [String] = []

    /// Creates the loader over `resources` (none unless given); other keys load `result(key)`,
    /// which may throw.
    public init(
        _ resources: [String: Data] = [:],
        result: @escaping @Sendable (String) throws -> Data = { Data($0.utf8) }
    ) {
        self.resources = resources
        self.result = result
    }

    /// Records `key`, then returns its resource, or `result(key)` if there is none.
    public func load(_ key: String) async throws -> Data {
        lock.withLock { keys.append(key) }
        if let resource = resources[key] { return resource }
        return try result(key)
    }

    /// How many loads reached the loader.
    public var calls: Int { lock.withLock { keys.count } }

    /// The keys asked for, in order, one per call.
    public var receivedKeys: [String] { lock.withLock { keys } }
}
