/// A policy that decides without suspending. ``AccessProxy`` asks such a gate with a plain call
/// instead of an async one; when every gate of a proxy is synchronous, a decision makes no async
/// call at all. Package-internal: the built-in policies adopt it, and their `evaluate` returns
/// exactly what `decide` returns.
package protocol SynchronousAccessPolicy: AccessPolicy {
    /// Decides the request, or throws when the policy cannot decide (which denies); the same
    /// answer as `evaluate(_:)`.
    func decide(_ request: AccessRequest) throws -> AccessDecision
}
