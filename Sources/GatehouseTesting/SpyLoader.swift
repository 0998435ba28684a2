import Foundation
import GatehouseCore

/// A loader over a dictionary that counts its calls and remembers the keys it was asked for:
/// the stand-in behind a gate that shows whether a denied request ever reached the loader.
///
/// A key not in the dictionary loads what `result` gives for it: its own bytes
/// (`Data(key.utf8)`) unless told otherwise, so a test that only counts calls needs no resources.
public final class SpyLoader: ResourceLoading {
    private let keys = LockedState<[String]>([])
    private let resources: [String: Data]
    private let result: @Sendable (String) throws -> Data

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
        keys.withLock { $0.append(key) }
        if let resource = resources[key] { return resource }
        return try result(key)
    }

    /// How many loads reached the loader.
    public var calls: Int { keys.withLock { $0.count } }

    /// The keys asked for, in order, one per call.
    public var receivedKeys: [String] { keys.withLock { $0 } }
}
