import GatehouseCore

/// A gatekeeper that allows everything and keeps the attributes of every request and plan it is
/// asked about: what reached a gatekeeper, to prove what did not.
public final class AttributeSpy: AccessPolicy {
    /// The name decisions are reported under.
    public let name: String
    private let seen = LockedState<[[String: String]]>([])

    /// Creates a spy named `name`.
    public init(_ name: String = "spy") {
        self.name = name
    }

    /// Keeps the request's attributes and allows.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        seen.withLock { $0.append(request.attributes) }
        return .allow
    }

    /// Keeps the plan request's attributes and allows every name.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        seen.withLock { $0.append(request.attributes) }
        return .exact(allowing: .everything)
    }

    /// The attributes of every request and plan asked, in order.
    public var attributes: [[String: String]] { seen.withLock { $0 } }

    /// Whether any request or plan carried `value` under `name`.
    public func saw(_ name: String, _ value: String) -> Bool {
        attributes.contains { $0[name] == value }
    }
}
