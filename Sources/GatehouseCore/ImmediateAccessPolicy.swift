/// A gatekeeper that answers without suspending, as the built-in policies do.
///
/// When every gatekeeper of an ``AccessGate`` adopts it and nothing observes the gate, the gate
/// decides with plain calls instead of async ones. That is an implementation detail: the
/// checks, their order, the cancellation rule and the answers are the same either way.
/// Package-internal; the built-in policies' `explain` returns exactly what ``explainNow(_:)``
/// returns.
package protocol ImmediateAccessPolicy: AccessPolicy {
    /// The answer of `explain(_:)`, given without suspending.
    func explainNow(_ request: AccessRequest) throws -> AccessExplanation

    /// `nil` when ``explainNow(_:)`` would allow, otherwise its answer: what a gate asks when it
    /// needs no explanation of an allow (``AccessGate/authorize(_:)``), so that a policy can
    /// skip building one.
    func refusalNow(_ request: AccessRequest) throws -> AccessExplanation?
}

extension ImmediateAccessPolicy {
    /// ``explainNow(_:)``, with an allow answered as `nil`.
    package func refusalNow(_ request: AccessRequest) throws -> AccessExplanation? {
        let answer = try explainNow(request)
        if case .allow = answer.decision { return nil }
        return answer
    }
}
