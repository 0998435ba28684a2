import Foundation
import GatehouseCore

/// A service assembled from configuration: gate → optional cache → loader. One gate decides
/// every operation with its action (`"read"`, `"write"`, `"delete"`, `"list"`); an operation
/// throws `AccessDenied`, `CancellationError`, or the loader's own error unchanged.
public struct ConfiguredService: ResourceStoring, ResourceListing {
    /// A configured service is a gate: a cache may stand behind it, never in front of it.
    public typealias Gate = AccessGate
    /// The service's name in the configuration.
    public let name: String
    /// The enforced chain: an `AccessProxy` in front of the (cached) loader.
    public let proxy: AccessProxy<AnyLoader<Never>>
    /// The service as described for people (`gatehouse describe`), one line per part, nested
    /// combinators indented.
    public let description: [String]

    /// The gate every operation is decided by.
    public var gate: AccessGate { proxy.gate }

    /// The shadow gatekeepers, reported and never enforced.
    var shadow: [any AccessPolicy] { proxy.gate.shadow.map(\.policy) }

    /// Loads `key` for the current `AccessContext` with the action `"read"`.
    public func load(_ key: String) async throws -> Data {
        try await proxy.load(key)
    }

    /// Loads `key` for the current `AccessContext` with the given action.
    public func load(_ key: String, action: String) async throws -> Data {
        try await proxy.authorize(key, action: AccessAction(rawValue: action))
        return try await proxy.base.load(key)
    }

    /// Stores `resource` for `key` if the gate allows `"write"`.
    public func store(_ resource: Data, for key: String) async throws {
        try await proxy.store(resource, for: key)
    }

    /// Removes `key` if the gate allows `"delete"`.
    public func remove(_ key: String) async throws {
        try await proxy.remove(key)
    }

    /// The keys under the folder `prefix` that may be read, if the gate allows `"list"` on it.
    public func keys(under prefix: String) async throws -> [String] {
        try await proxy.keys(under: prefix)
    }

    /// Decides `request`, with the resource's attributes merged in, without loading anything;
    /// throws `AccessDenied` or `CancellationError`.
    public func authorize(_ request: AccessRequest) async throws {
        try await gate.authorize(
            request, identity: gate.identity, resourceAttributes: proxy.attributes(of: request.resource))
    }

    /// Decides `request` as ``authorize(_:)`` does and explains the verdict, step by step.
    public func decide(_ request: AccessRequest) async throws(CancellationError) -> AccessVerdict {
        try await gate.decide(
            request, identity: gate.identity, explained: true, whyNot: true,
            resourceAttributes: proxy.attributes(of: request.resource))
    }

    /// The request for `key` in the current `AccessContext`.
    package func request(for key: String, action: String = "read") -> AccessRequest {
        var request = proxy.request(for: key)
        request.action = AccessAction(rawValue: action)
        return request
    }
}
