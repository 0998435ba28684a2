import Foundation
import GatehouseCore

/// A service assembled from configuration: gate → optional cache → loader, usable wherever an
/// `any ResourceLoading<String, Data>` is, and able to decide without loading (for `check`),
/// store, remove and list.
///
/// Every operation is decided by the same gate (``gate``), each with its own action: `load`
/// asks `"read"` (or the action given), `store` `"write"`, `remove` `"delete"`, `keys(under:)`
/// `"list"` for the folder and then `"read"` for each key. Shadow gatekeepers, if configured,
/// are asked on every decision and reported to the observer as records with
/// `AccessRecord.isShadow` set; their answer is never enforced. Every record names the service.
public struct ConfiguredService: ResourceStoring, ResourceListing {
    /// A configured service is a gate: a cache may stand behind it, never in front of it.
    public typealias Gate = AccessGate
    /// The service's name in the configuration.
    public let name: String
    /// The enforced chain: an `AccessProxy` in front of the (cached) loader.
    public let proxy: AccessProxy<AnyLoader>
    /// The service as described for people, one line per part, nested combinators indented.
    public let explanation: [String]

    /// The gate every operation is decided by.
    public var gate: AccessGate { proxy.gate }

    /// The shadow gatekeepers, reported and never enforced.
    public var shadow: [any AccessPolicy] { proxy.gate.shadow }

    /// Loads `key` for the current `AccessContext` with the action `"read"`.
    public func load(_ key: String) async throws -> Data {
        try await proxy.load(key)
    }

    /// Loads `key` for the current `AccessContext` with the given action.
    ///
    /// - Throws: `AccessDenied`, `CancellationError`, or the loader's own error, unchanged.
    public func load(_ key: String, action: String) async throws -> Data {
        try await proxy.authorize(key, action: AccessAction(rawValue: action))
        return try await proxy.base.load(key)
    }

    /// Stores `resource` for `key` if the gate allows `"write"`.
    ///
    /// - Throws: `AccessDenied`, `CancellationError`, or the loader's own error, unchanged
    ///   (``UnsupportedOperation`` when it does not store).
    public func store(_ resource: Data, for key: String) async throws {
        try await proxy.store(resource, for: key)
    }

    /// Removes `key` if the gate allows `"delete"`.
    ///
    /// - Throws: `AccessDenied`, `CancellationError`, or the loader's own error, unchanged.
    public func remove(_ key: String) async throws {
        try await proxy.remove(key)
    }

    /// The keys under the folder `prefix` that may be read, if the gate allows `"list"` on it.
    ///
    /// - Throws: `AccessDenied`, `CancellationError`, or the loader's own error, unchanged.
    public func keys(under prefix: String) async throws -> [String] {
        try await proxy.keys(under: prefix)
    }

    /// Decides `request` without loading anything: returns when every gatekeeper allows. The
    /// resource's attributes, when the service has a source for them, are merged in first.
    ///
    /// - Throws: `AccessDenied` or `CancellationError`.
    public func authorize(_ request: AccessRequest) async throws {
        try await gate.authorize(
            request, identity: gate.identity, resourceAttributes: proxy.attributes(of: request.resource))
    }

    /// Decides `request` without loading anything and explains the verdict, every gatekeeper's
    /// step included. The resource's attributes, when the service has a source for them, are
    /// merged in first.
    ///
    /// - Throws: `CancellationError` only.
    public func decide(_ request: AccessRequest) async throws(CancellationError) -> AccessVerdict {
        try await gate.decide(
            request, identity: gate.identity, explained: true, whyNot: true,
            resourceAttributes: proxy.attributes(of: request.resource))
    }

    /// The request for `key` in the current `AccessContext`.
    public func request(for key: String, action: String = "read") -> AccessRequest {
        var request = proxy.request(for: key)
        request.action = AccessAction(rawValue: action)
        return request
    }
}
