/// A gatekeeper's answer to an ``AccessRequest``.
public enum AccessDecision: Sendable, Hashable {
    /// The request may proceed to the next gate (or, after the last gate, to the loader).
    case allow
    /// The request is refused; `reason` says why in words a person can act on.
    case deny(reason: String)

    /// Whether the decision is `allow`.
    public var isAllowed: Bool {
        if case .allow = self { return true }
        return false
    }

    /// The reason of a denial, or `nil` for `allow`.
    public var reason: String? {
        if case .deny(let reason) = self { return reason }
        return nil
    }
}
