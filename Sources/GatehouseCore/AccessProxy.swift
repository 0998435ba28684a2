import Foundation

/// A gate in front of a loader: conforms to the same protocol, asks its ``gate`` on every call,
/// and either forwards the call unchanged or throws ``AccessDenied`` without touching the loader.
/// With `attributes` (``ResourceAttributes``), a resource's own attributes (its owner) are read
/// before any gatekeeper, and the caller's value for a name they take is dropped; a throw fails
/// the gate (`(attributes)`).
///
/// ```swift
/// let owners = ResourceAttributes<String>(["owner"]) { ["owner": try await catalog.owner(of: $0)] }
/// let documents = store.guarded(by: rules, attributes: owners)
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
    /// The resources' attributes by key; `nil` for the gate's own, by resource name.
    let resourceAttributes: ResourceAttributes<Base.Key>?

    /// Creates a proxy over a gate of `gatekeepers` (see ``AccessGate``); `resource` names a key's
    /// resource (`String(describing: key)` by default), and `attributes` reads its attributes.
    public init(
        _ base: Base,
        gatekeepers: [any AccessPolicy],
        action: AccessAction = .read,
        observer: (any AccessObserver)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        identity: ResourceIdentity = .path,
        mask: Set<String> = [],
        resource: @escaping @Sendable (Base.Key) -> String = { String(describing: $0) },
        attributes: ResourceAttributes<Base.Key>
    ) {
        self.init(
            base, gatekeepers: gatekeepers, action: action, observer: observer, clock: clock,
            identity: identity, mask: mask, resource: resource, attributes: Optional(attributes))
    }

    /// Creates a proxy over a gate of `gatekeepers` (see ``AccessGate``); `resource` names a key's
    /// resource (`String(describing: key)` by default). With `attributes`, every name is the
    /// resource's (``ResourceAttributes/init(everyName:)``): no attribute of the caller reaches
    /// a gatekeeper; declare the names with ``ResourceAttributes`` to keep the caller's others.
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
        self.init(
            base, gatekeepers: gatekeepers, action: action, observer: observer, clock: clock,
            identity: identity, mask: mask, resource: resource,
            attributes: attributes.map(ResourceAttributes.init(everyName:)))
    }

    /// Creates a proxy over a gate of `gatekeepers`, with optional resource attributes.
    private init(
        _ base: Base, gatekeepers: [any AccessPolicy], action: AccessAction, observer: (any AccessObserver)?,
        clock: @escaping @Sendable () -> Date, identity: ResourceIdentity, mask: Set<String>,
        resource: @escaping @Sendable (Base.Key) -> String, attributes: ResourceAttributes<Base.Key>?
    ) {
        // The gate knows the source's names, so that a plan or a decision asked of it directly
        // drops the caller's values under them too; only the proxy reads values, by key.
        let gate = AccessGate(
            gatekeepers: gatekeepers, observer: observer, clock: clock, identity: identity, mask: mask,
            resourceAttributes: attributes?.readByItsProxy)
        self.init(base, gate: gate, action: action, resource: resource, attributes: attributes)
    }

    /// Creates a proxy that decides with `gate`; without `attributes`, the gate's own
    /// ``AccessGate/resourceAttributes`` are read by resource name.
    public init(
        _ base: Base, gate: AccessGate, action: AccessAction = .read,
        resource: @escaping @Sendable (Base.Key) -> String = { String(describing: $0) },
        attributes: ResourceAttributes<Base.Key>? = nil
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

    /// Explains what a ``load(_:)`` of `key` would meet now, without reaching the base: the
    /// verdict, every gatekeeper's step, and near misses for a denial by rules.
    ///
    /// - Throws: `CancellationError` only.
    public func decide(_ key: Base.Key, action: AccessAction? = nil) async throws(CancellationError)
        -> AccessVerdict
    {
        try await gate.decide(
            request(action: action ?? self.action, resource: resourceName(key)), identity: gate.identity,
            explained: true, whyNot: true, resourceAttributes: attributes(of: key))
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

    /// The read of `key`'s attributes by the proxy's own source; `nil` leaves them to the gate's.
    package func attributes(of key: Base.Key) -> AccessGate.AttributeRead? {
        guard let resourceAttributes else { return nil }
        return { try await resourceAttributes.read(key) }
    }

    /// The read for a folder being listed, by the proxy's own source: a folder is no key, so it
    /// has no values, and the caller's value under each name the source takes is dropped all the
    /// same. `nil` leaves the folder to the gate's own source, which reads it by name.
    func folderAttributes() -> AccessGate.AttributeRead? {
        guard let resourceAttributes else { return nil }
        return { (try await resourceAttributes.currentNames(), [:]) }
    }

    /// The request for `action` on `resource` in the current ``AccessContext``.
    func request(action: AccessAction, resource: String) -> AccessRequest {
        let context = AccessContext.current
        return AccessRequest(
            subject: context.subject, action: action, resource: resource, attributes: context.attributes)
    }

    /// The names the proxy's resource attributes take now, its own source's or else the gate's.
    func currentResourceAttributeNames() async throws -> ResourceAttributeNames {
        if let resourceAttributes { return try await resourceAttributes.currentNames() }
        return try await gate.resourceAttributes?.currentNames() ?? .none
    }
}

extension ResourceLoading {
    /// Guards this loader with gatekeepers asked in order on every call, as ``AccessProxy`` does,
    /// with the resources' attributes read by `attributes`.
    public func guarded(
        by gatekeepers: any AccessPolicy...,
        action: AccessAction = .read,
        observer: (any AccessObserver)? = nil,
        mask: Set<String> = [],
        attributes: ResourceAttributes<Key>
    ) -> AccessProxy<Self> {
        AccessProxy(
            self, gatekeepers: gatekeepers, action: action, observer: observer, mask: mask,
            attributes: attributes)
    }

    /// Guards this loader with gatekeepers asked in order on every call, as ``AccessProxy`` does;
    /// with `attributes`, every attribute name is the resource's (see
    /// ``ResourceAttributes/init(everyName:)``).
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
