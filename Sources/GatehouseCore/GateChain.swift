import Foundation

/// The gatekeepers of an ``AccessProxy`` and what it does with their answers: asks them in order,
/// turns the first refusal or failure into ``AccessDenied``, and reports to the observer.
///
/// Not generic, so it is compiled once in this module and never needs generic metadata; the
/// proxy's inlinable `load` calls it directly.
@usableFromInline
final class GateChain: Sendable {
    let gatekeepers: [any AccessPolicy]
    /// The same gatekeepers as links, when every one is a ``SynchronousAccessPolicy``.
    let synchronous: (any SynchronousLink)?
    /// Whether every gatekeeper decides synchronously (then ``authorizeSynchronously(_:)`` applies).
    @usableFromInline let isSynchronous: Bool
    /// The action named in every request built by ``authorizeSynchronously(resource:)``.
    let action: String
    let observer: (any AccessObserver)?
    /// Whether `observer` is set (tested without copying the existential).
    let hasObserver: Bool
    let now: @Sendable () -> Date
    /// The rule every request's resource is checked against before any gate.
    let identity: ResourceIdentity

    init(
        _ gatekeepers: [any AccessPolicy], action: String, observer: (any AccessObserver)?,
        now: @escaping @Sendable () -> Date, identity: ResourceIdentity
    ) {
        self.gatekeepers = gatekeepers
        self.identity = identity
        self.action = action
        self.observer = observer
        self.hasObserver = observer != nil
        self.now = now
        // An empty chain takes the asynchronous path, which denies it.
        let members = gatekeepers.isEmpty ? nil : synchronousMembers(gatekeepers)
        self.isSynchronous = members != nil
        self.synchronous = members.flatMap(makeLinks)
    }

    /// Builds the request for `resource` in the current ``AccessContext`` and asks every
    /// gatekeeper, which all decide synchronously; returns when all allow. Only for a chain that
    /// ``isSynchronous``.
    ///
    /// The proxy's hot path: one look-up of the task-local context, one request built and only
    /// borrowed from then on, no async call, no cancellation check (see
    /// ``authorizeSynchronously(_:)``).
    @usableFromInline
    func authorizeSynchronously(resource: __owned String) throws {
        let request = makeRequest(resource: resource)
        try authorizeSynchronously(request)
    }

    /// The request for `resource` in the current ``AccessContext``. Kept out of line: built
    /// in its own frame, the context's fields move into the result, where inlined into the
    /// caller the optimizer copies the whole request once more (four retains and releases).
    @inline(never)
    private func makeRequest(resource: __owned String) -> AccessRequest {
        let context = AccessContext.current
        return AccessRequest(
            subject: context.subject, action: action, resource: resource, attributes: context.attributes)
    }

    /// Asks every gatekeeper, which all decide synchronously, in order; returns when all allow.
    /// Only for a chain that ``isSynchronous``.
    ///
    /// No cancellation check: a chain of synchronous gates never suspends, so the proxy adds no
    /// point at which a cancellation could arrive, and a cancelled task reaches the loader
    /// exactly as it would without the proxy (the loader handles cancellation as it always
    /// does). The asynchronous path, whose gates can suspend, checks before and after them.
    @usableFromInline
    func authorizeSynchronously(_ request: AccessRequest) throws {
        try authorizeSynchronously(request, identity: identity)
    }

    /// ``authorizeSynchronously(_:)`` with the resource checked against `identity`.
    private func authorizeSynchronously(_ request: AccessRequest, identity: ResourceIdentity) throws {
        try checkIdentity(request, identity: identity)
        // Tested and called through the stored property, not bound to a local: a local copy of
        // the link costs a retain and a release per decision.
        guard synchronous != nil else { throw noGatekeepers(request) }
        do {
            try synchronous?.decide(request)
        } catch {
            throw refusal(request, error)
        }
        if hasObserver {
            observeAllowed(request)
        }
    }

    /// The denial for a synchronous chain that stopped at a gate. Out of line, so the allowed
    /// path stays small.
    @inline(never)
    private func refusal(_ request: AccessRequest, _ stop: GateStop) -> AccessDenied {
        let gate = gatekeepers[stop.index]
        switch stop.outcome {
        case .denied(let reason):
            return deny(request, gate: gate.name, reason: reason, kind: .denied, error: nil)
        case .failed(let failure):
            return deny(
                request, gate: gate.name, reason: describe(failure), kind: .gateFailure, error: failure)
        }
    }

    /// Asks every gatekeeper in order; returns when all allow.
    @usableFromInline
    func authorize(_ request: AccessRequest) async throws {
        try await authorize(request, identity: identity)
    }

    /// Asks about a request whose resource names a folder (a listing): the root, `""`, is
    /// checked as text (it holds nothing to check), any other folder name against ``identity``
    /// as a key is. Takes the synchronous path when the chain ``isSynchronous``.
    func authorizeFolder(_ request: AccessRequest) async throws {
        let rule = request.resource.isEmpty ? ResourceIdentity.text : identity
        if isSynchronous {
            try authorizeSynchronously(request, identity: rule)
        } else {
            try await authorize(request, identity: rule)
        }
    }

    /// ``authorize(_:)`` with the resource checked against `identity`.
    private func authorize(_ request: AccessRequest, identity: ResourceIdentity) async throws {
        try Task.checkCancellation()
        try checkIdentity(request, identity: identity)
        guard !gatekeepers.isEmpty else { throw noGatekeepers(request) }
        for gate in gatekeepers {
            let decision: AccessDecision
            do {
                decision = try await gate.evaluate(request)
            } catch {
                throw gateFailed(request, gate: gate, error: error)
            }
            if case .deny(let reason) = decision {
                throw deny(request, gate: gate.name, reason: reason, kind: .denied, error: nil)
            }
        }
        // A cancellation that arrived while the gates ran still stops the call here.
        try Task.checkCancellation()
        if hasObserver {
            observeAllowed(request)
        }
    }

    /// Refuses a request whose resource breaks `identity`, or whose subject or action is not
    /// NFC text free of control characters, before any gate is asked.
    private func checkIdentity(_ request: AccessRequest, identity: ResourceIdentity) throws(AccessDenied) {
        let problem: String
        if let violation = identity.violation(in: request.resource) {
            problem = "the resource \(violation)"
        } else if let subject = request.subject, let violation = ResourceIdentity.text.violation(in: subject)
        {
            problem = "the subject \(violation)"
        } else if let violation = ResourceIdentity.text.violation(in: request.action) {
            problem = "the action \(violation)"
        } else {
            return
        }
        throw deny(request, gate: Self.identityGate, reason: problem, kind: .denied, error: nil)
    }

    /// The gate named in a denial by the identity check.
    static let identityGate = "(identity)"

    private func noGatekeepers(_ request: AccessRequest) -> AccessDenied {
        let reason = "no gatekeepers are configured; add AlwaysAllow if everything may pass"
        return deny(request, gate: "(none)", reason: reason, kind: .denied, error: nil)
    }

    /// What a gate that threw `error` makes the call throw: `CancellationError` when the task was
    /// cancelled, otherwise a gate-failure denial.
    private func gateFailed(_ request: AccessRequest, gate: any AccessPolicy, error: any Error) -> any Error {
        if Task.isCancelled { return CancellationError() }
        return deny(request, gate: gate.name, reason: describe(error), kind: .gateFailure, error: error)
    }

    private func observeAllowed(_ request: AccessRequest) {
        observer?.observe(
            AccessRecord(
                request: request, decision: .allow, gate: gatekeepers[gatekeepers.count - 1].name,
                instant: now()))
    }

    private func deny(
        _ request: AccessRequest, gate: String, reason: String, kind: AccessDenied.Kind, error: (any Error)?
    ) -> AccessDenied {
        if let observer {
            observer.observe(
                AccessRecord(
                    request: request, decision: .deny(reason: reason), gate: gate, instant: now(),
                    isGateFailure: kind == .gateFailure))
        }
        return AccessDenied(
            request: request, policy: gate, reason: reason, kind: kind, underlyingError: error)
    }
}
