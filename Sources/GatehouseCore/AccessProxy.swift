import Foundation

/// A gate in front of a loader: conforms to the same protocol, asks its ``gate`` on every call,
/// and either forwards the call unchanged or throws ``AccessDenied`` without touching the loader.
/// With `attributes`, a resource's own attributes (its owner) are merged into each request and
/// win over the caller's ``AccessContext`` attributes; a throw fails the gate (`(attributes)`).
///
/// ```swift
/// let documents = store.guarded(by: rules, attributes: { ["owner": try await owners.owner(of: $0)] })
/// let data = try await documents.load("docs/plan.txt")
/// ```
public struct AccessProxy<Base: ResourceLoading>: ResourceLoading {
    /// A proxy is a gate: a cache may stand behind it, never in front of it (it does not compile).
    public typealias Gate = AccessGate
    package let base: Base
    /// The gate every call is decided by.
    public let gate: AccessGate
    /// The action named in the request of ``load(_:)``, ``AccessAction/read`` by default.
    public let action: AccessAction

    let resourceName: @Sendable (Base.Key) -> String
    let resourceAttributes: (@Sendable (Base.Key) async throws -> [String: String])?

    /// Creates a proxy over a gate of `gatekeepers` (see ``AccessGate``); `resource` names a key's
    /// resource (`String(describing: key)` by default).
    public init(
        _ base: Base,
        gatekeepers: [any AccessPolicy],
        action: AccessAction = .read,
        observer: (any AccessObserver)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        identity: ResourceIdentity = .path,
        mask: Set<String> = [],
        resource: @escaping @Sendable (Base.Key) -> String = { String(describing: $0) },
        attributes: (@Sendable (Base.Key) async throws -> [String: String])? = nil
    ) {
        let gate = AccessGate(
            gatekeepers: gatekeepers, observer: observer, clock: clock, identity: identity, mask: mask)
        self.init(base, gate: gate, action: action, resource: resource, attributes: attributes)
    }

    /// Creates a proxy that decides with `gate`.
    public init(
        _ base: Base, gate: AccessGate, action: AccessAction = .read,
        resource: @escaping @Sendable (Base.Key) -> String = { String(describing: $0) },
        attributes: (@Sendable (Base.Key) async throws -> [String: String])? = nil
    ) {
        self.base = base
        self.gate = gate
        self.action = action
        self.resourceName = resource
        self.resourceAttributes = attributes
    }

    /// Asks the gatekeepers about `key` and, if all allow, loads it from the base; throws
    /// ``AccessDenied``, `CancellationError`, or the base's own error, unchanged.
    public func load(_ key: Base.Key) async throws -> Base.Resource {
        try await authorize(key, action: action)
        return try await base.load(key)
    }

    /// The request for `key` in the current context, before the resource's attributes.
    package func request(for key: Base.Key) -> AccessRequest {
        request(action: action, resource: resourceName(key))
    }

    /// Asks the gate whether `action` may be done to `key`.
    package func authorize(_ key: Base.Key, action: AccessAction) async throws {
        try await gate.authorize(
            request(action: action, resource: resourceName(key)), identity: gate.identity,
            resourceAttributes: attributes(of: key))
    }

    package func attributes(of key: Base.Key) -> AccessGate.ResourceAttributes? {
        guard let resourceAttributes else { return nil }
        return { try await resourceAttributes(key) }
    }

    /// The request for `action` on `resource` in the current ``AccessContext``.
    func request(action: AccessAction, resource: String) -> AccessRequest {
        let context = AccessContext.current
        return AccessRequest(
            subject: context.subject, action: action, resource: resource, attributes: context.attributes)
    }
}

extension ResourceLoading {
    /// Guards this loader with gatekeepers asked in order on every call, as ``AccessProxy`` does.
    public func guarded(
        by gatekeepers: any AccessPolicy...,
        action: AccessAction = .read,
        observer: (any AccessObserver)? = nil,
        mask: Set<String> = [],
        attributes: (@Sendable (Key) async throws -> [String: String])? = nil
    ) -> AccessProxy<Self> {
        AccessProxy(
            self, gatekeepers: gatekeepers, action: action, observer: observer, mask: mask,
            attributes: attributes)
    }
}
