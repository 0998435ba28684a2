import Foundation

/// The gatekeepers of an ``AccessProxy`` and what it does with their answers: asks them in order,
/// turns the first refusal or failure into ``AccessDenied``, and reports to the observer.
///
/// Not generic, so it is compiled once in this module and never needs generic metadata; the
/// proxy's inlinable `load` calls it directly.
@usableFromInline
final class GateChain: Sendable {
    let gatekeepers: [any AccessPolicy]
    /// The same gatekeepers when every one is a ``SynchronousAccessPolicy``, else `nil`.
    let synchronous: [any SynchronousAccessPolicy]?
    /// Whether every gatekeeper decides synchronously (then ``authorizeSynchronously(_:)`` applies).
    @usableFromInline let isSynchronous: Bool
    let observer: (any AccessObserver)?
    /// Whether `observer` is set (tested without copying the existential).
    let hasObserver: Bool
    let now: @Sendable () -> Date

    init(
        _ gatekeepers: [any AccessPolicy], observer: (any AccessObserver)?,
        now: @escaping @Sendable () -> Date
    ) {
        self.gatekeepers = gatekeepers
        self.observer = observer
        self.hasObserver = observer != nil
        self.now = now
        var synchronous: [any SynchronousAccessPolicy] = []
        for gate in gatekeepers {
            guard let gate = gate as? any SynchronousAccessPolicy else {
                self.synchronous = nil
                self.isSynchronous = false
                return
            }
            synchronous.append(gate)
        }
        self.synchronous = synchronous
        self.isSynchronous = true
    }

    /// Asks every gatekeeper, which all decide synchronously; returns when all allow. Only for a
    /// chain that ``isSynchronous``.
    @usableFromInline
    func authorizeSynchronously(_ request: AccessRequest) throws {
        try Task.checkCancellation()
        guard let gates = synchronous, !gates.isEmpty else { throw noGatekeepers(request) }
        for gate in gates {
            let decision: AccessDecision
            do {
                decision = try gate.decide(request)
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

    /// Asks every gatekeeper in order; returns when all allow.
    @usableFromInline
    func authorize(_ request: AccessRequest) async throws {
        try Task.checkCancellation()
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
