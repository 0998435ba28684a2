import Foundation
import GatehouseCore

/// Any loader of `Data` by `String` key, so that an assembled chain has one type. It stores,
/// removes and lists when the wrapped loader does, else throws ``UnsupportedOperation``.
public struct AnyLoader: ResourceStoring, ResourceListing {
    /// The wrapped loader.
    public let base: any ResourceLoading<String, Data>

    /// Wraps `base`.
    public init(_ base: any ResourceLoading<String, Data>) {
        self.base = base
    }

    /// Loads from the wrapped loader.
    public func load(_ key: String) async throws -> Data {
        try await base.load(key)
    }

    /// Stores in the wrapped loader.
    public func store(_ resource: Data, for key: String) async throws {
        try await base(as: (any ResourceStoring<String, Data>).self, for: "write").store(resource, for: key)
    }

    /// Removes from the wrapped loader.
    public func remove(_ key: String) async throws {
        try await base(as: (any ResourceStoring<String, Data>).self, for: "delete").remove(key)
    }

    /// Lists in the wrapped loader.
    public func keys(under prefix: String) async throws -> [String] {
        try await base(as: (any ResourceListing<String>).self, for: "list").keys(under: prefix)
    }

    private func base<Capable>(as _: Capable.Type, for operation: String) throws -> Capable {
        guard let capable = base as? Capable else {
            throw UnsupportedOperation(operation: operation, loader: String(describing: type(of: base)))
        }
        return capable
    }
}

/// Thrown by ``AnyLoader`` when the wrapped loader cannot do what was asked.
public struct UnsupportedOperation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation asked: `"write"`, `"delete"` or `"list"`.
    public var operation: String
    /// The loader's type, as Swift names it.
    public var loader: String

    /// Creates the error for `operation` on a loader of type `loader`.
    public init(operation: String, loader: String) {
        self.operation = operation
        self.loader = loader
    }

    /// Says which loader cannot do which operation.
    public var description: String { "the loader \(loader) cannot \(operation)" }
}
