import Foundation
import GatehouseCore

/// Any loader of `Data` by `String` key, so that an assembled chain has one type. It stores,
/// removes and lists when the wrapped loader does, else throws ``UnsupportedOperation``.
/// `Gate` is the wrapped loader's own (`AccessGate` for a proxy or a configured service), so
/// erasing a gate keeps the compile-time guard: `CachingLoader(AnyLoader(proxy))` does not
/// compile, as `CachingLoader(proxy)` does not. A listing filtered by a plan reaches the wrapped
/// loader's own filter when it has one (`FilteredListing`), so a configured service pushes its
/// plan down as the loader it wraps would.
public struct AnyLoader<Gate>: ResourceStoring, FilteredListing {
    /// The wrapped loader.
    package let base: any ResourceLoading<String, Data>

    /// Wraps `base`, keeping its `Gate`.
    public init<Base: ResourceLoading<String, Data>>(_ base: Base) where Base.Gate == Gate {
        self.base = base
    }

    /// Wraps a loader whose type is known only at run time (a plugin's), once it is known not
    /// to be a gate.
    init(checked base: any ResourceLoading<String, Data>) where Gate == Never {
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

    /// The wrapped loader's, when it filters; otherwise none.
    public var filteredAttributeNames: Set<String> {
        (base as? any FilteredListing<String>)?.filteredAttributeNames ?? []
    }

    /// Lists in the wrapped loader, narrowed by `plan` when it filters; otherwise every key under
    /// `prefix` (the proxy checks each name either way).
    public func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [String] {
        if let filtering = base as? any FilteredListing<String> {
            return try await filtering.keys(under: prefix, permittedBy: plan)
        }
        return try await keys(under: prefix)
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
    var operation: String
    /// The loader's type, as Swift names it.
    var loader: String

    /// Creates the error for `operation` on a loader of type `loader`.
    init(operation: String, loader: String) {
        self.operation = operation
        self.loader = loader
    }

    /// Says which loader cannot do which operation.
    public var description: String { "the loader \(loader) cannot \(operation)" }
}
