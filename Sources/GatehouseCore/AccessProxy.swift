import Foundation

/// A gate in front of a loader: conforms to the same protocol, asks its gatekeepers on every
/// call, and either forwards the call unchanged or throws ``AccessDenied`` without ever touching
/// the loader.
///
/// The proxy is an ``AccessGate`` (``gate``) plus a loader, and the gate's rules are its rules
/// (fail closed; a cancelled task never reaches the loader). An allowed call forwards the exact
/// key and returns the loader's result or error unchanged.
///
/// With `attributes`, the resource's own attributes (its owner, from its metadata) are merged
/// into each request about a key before any gatekeeper is asked: for `load`, `store`, `remove`
/// and each name a listing returns. They win over the caller's ``AccessContext`` attributes of
/// the same name, so a caller cannot claim ownership; a throw fails the gate (`(attributes)`).
///
/// ```swift
/// let avatars = thumbnails.guarded(by: AllowList(resources: ["avatars/*"]))
/// let data = try await avatars.load("avatars/alice.png")
///
/// let documents = store.guarded(by: rules, attributes: { key in
///     ["owner": try await owners.owner(of: key)]   // for `allow * write docs/* if owner={subject}`
/// })
/// ```
public struct AccessProxy<Base: ResourceLoading>: ResourceLoading {
    /// A proxy is a gate: a cache may stand behind it, never in front of it.
    public typealias Gate = AccessGate
    /// The guarded loader; reached only by allowed calls.
    package let base: Base
    /// The gate: the gatekeepers, observer, clock and identity rule every call is decided by.
    public let gate: AccessGate
    /// The action named in the request of ``load(_:)``, ``AccessAction/read`` by default.
    public let action: AccessAction

    /// Names a key's resource: the `resource` text of its requests.
    let resourceName: @Sendable (Base.Key) -> String
    /// The attributes of a key's resource, merged into its requests; `nil` for none.
    let resourceAttributes: (@Sendable (Base.Key) async throws -> [String: String])?

    /// Creates a proxy whose requests name the resource with `resource(key)`.
    ///
    /// - Parameters:
    ///   - base: The loader to guard.
    ///   - gatekeepers: The gatekeepers to ask, in order; `observer`, `clock`, `identity` and
    ///     `mask` are those of ``AccessGate/init(gatekeepers:shadow:observer:clock:identity:service:mask:)``.
    ///   - action: The action named in the request of ``load(_:)``.
    ///   - resource: Converts a key to the request's `resource` text; `String(describing: key)`
    ///     by default.
    ///   - attributes: The attributes of a key's resource, merged into its requests before any
    ///     gatekeeper is asked (they win over the context's); a throw fails the gate.
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

    /// Creates a proxy that decides with `gate`; the other parameters are those of
    /// ``init(_:gatekeepers:action:observer:clock:identity:mask:resource:attributes:)``.
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

    /// Asks the gatekeepers about `key` and, if all allow, loads it from the base.
    ///
    /// - Throws: ``AccessDenied`` when a gatekeeper does not allow or fails; `CancellationError`
    ///   when the task was cancelled before or while the gatekeepers were asked; otherwise the
    ///   base's own error, unchanged.
    public func load(_ key: Base.Key) async throws -> Base.Resource {
        try await authorize(key, action: action)
        return try await base.load(key)
    }

    /// The request this proxy asks its gatekeepers about for `key`, in the current
    /// ``AccessContext``, before the resource's attributes are merged in.
    package func request(for key: Base.Key) -> AccessRequest {
        request(action: action, resource: resourceName(key))
    }

    /// Asks the gatekeepers whether `action` may be done to `key`, with the resource's
    /// attributes merged in.
    package func authorize(_ key: Base.Key, action: AccessAction) async throws {
        try await gate.authorize(
            request(action: action, resource: resourceName(key)), identity: gate.identity,
            resourceAttributes: attributes(of: key))
    }

    /// Reads the attributes of `key`'s resource when the proxy has a source for them.
    package func attributes(of key: Base.Key) -> AccessGate.ResourceAttributes? {
        guard let resourceAttributes else { return nil }
        return { try await resourceAttributes(key) }
    }

    /// The request for `action` on `resource` in the current ``AccessContext``: what `load`,
    /// `store`, `remove` and `keys(under:)` ask about.
    func request(action: AccessAction, resource: String) -> AccessRequest {
        let context = AccessContext.current
        return AccessRequest(
            subject: context.subject, action: action, resource: resource, attributes: context.attributes)
    }
}

extension ResourceLoading {
    /// Guards this loader with gatekeepers asked in order on every call; the other parameters
    /// are those of ``AccessProxy``'s initializer.
    ///
    /// ```swift
    /// let avatars = thumbnails.guarded(by: AllowList(resources: ["avatars/*"]), TimeWindow(...))
    /// ```
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
