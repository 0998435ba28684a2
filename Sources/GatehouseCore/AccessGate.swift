import Foundation

/// The gatekeepers on their own, without a service behind them: asks them in order about a
/// request and gives an explained verdict, a thrown ``AccessDenied``, or a filtered batch.
/// ``AccessProxy`` is a gate plus a service; use a gate directly to guard any operation of a
/// protocol of your own.
///
/// - Before any gatekeeper, the resource is checked against the ``ResourceIdentity`` rule, and
///   the subject and action as text; a request that breaks it is denied by `(identity)`.
/// - Gatekeepers are asked in order on every call; the first that does not allow decides.
///   A grant is never cached. A gatekeeper that throws fails the verdict (fail closed).
/// - A gate with no gatekeepers denies everything: an empty chain is not an open door.
/// - A task cancelled before the gate is asked, or while its gatekeepers allowed, gets
///   `CancellationError`, so a guarded operation does not start. A denial stays a denial.
/// - The observer receives one ``AccessRecord`` per verdict, and one per shadow gatekeeper.
/// - Values of ``mask``ed attributes appear in no record, verdict or denial.
///
/// ```swift
/// let gate = AccessGate(gatekeepers: [rules], observer: auditLog)
/// func share(_ document: String, with user: String) async throws {
///     try await gate.authorize(AccessRequest(subject: me, action: "share", resource: document))
///     try await store.share(document, with: user)
/// }
/// ```
public struct AccessGate: Sendable {
    /// The gatekeepers, asked in order.
    package let gatekeepers: [any AccessPolicy]
    /// Gatekeepers asked only to be reported, never enforced; see the initializer.
    package let shadow: [any AccessPolicy]
    /// Receives one record per verdict, and one per shadow gatekeeper.
    package let observer: (any AccessObserver)?
    /// The rule every request's resource is checked against before any gatekeeper.
    package let identity: ResourceIdentity
    /// The name of the service this gate guards, carried by every record; `nil` when not set.
    package let service: String?
    /// The attribute names whose values appear in no output: in records, verdicts and denials
    /// such a value reads `(masked)`, in reasons too. Gatekeepers still see the real value.
    public let mask: Set<String>
    /// Stamps records.
    let clock: @Sendable () -> Date
    /// The shadow asks in flight, shared by the gate's copies.
    let shadowAsks = ShadowAsks(limit: AccessGate.maximumShadowAsksInFlight)

    /// Creates a gate.
    ///
    /// - Parameters:
    ///   - gatekeepers: The gatekeepers to ask, in order.
    ///   - shadow: Gatekeepers to ask and report (``AccessRecord/isShadow``), never enforced: a
    ///     way to try a new policy on real traffic. With an observer, each is asked off the
    ///     caller's path, in a task of its own that keeps the caller's ``AccessContext`` but not
    ///     its cancellation; at most 64 asks of one gate are in flight, and one beyond is
    ///     recorded as dropped (``AccessRecord/isDropped``).
    ///   - observer: Receives one record per verdict.
    ///   - clock: Stamps records.
    ///   - identity: The rule each resource text must keep before any gatekeeper is asked; see
    ///     ``ResourceIdentity``. Use ``ResourceIdentity/text`` for resources that are not paths.
    ///   - service: The service's name, carried by every record.
    ///   - mask: Attribute names whose values must appear in no output (a token, a password).
    public init(
        gatekeepers: [any AccessPolicy],
        shadow: [any AccessPolicy] = [],
        observer: (any AccessObserver)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        identity: ResourceIdentity = .path,
        service: String? = nil,
        mask: Set<String> = []
    ) {
        self.gatekeepers = gatekeepers
        self.shadow = shadow
        self.observer = observer
        self.clock = clock
        self.identity = identity
        self.service = service
        self.mask = mask
    }

    /// Asks the gatekeepers about `request` and explains the answer, with every gatekeeper's
    /// step and, for a denial by a rules gatekeeper, its near misses
    /// (``AccessVerdict/nearMisses``). Records the verdict with the observer.
    ///
    /// - Throws: `CancellationError` only (see the type's cancellation rule); a denial or a
    ///   failure is a verdict, not an error.
    public func decide(_ request: AccessRequest) async throws(CancellationError) -> AccessVerdict {
        try await decide(request, identity: identity, explained: true, whyNot: true)
    }

    /// Asks the gatekeepers about `request`; returns when they all allow.
    ///
    /// - Throws: ``AccessDenied`` (naming the deciding gatekeeper, the reason and the rule) when
    ///   the verdict is not an allow; `CancellationError` as the type's cancellation rule says.
    public func authorize(_ request: AccessRequest) async throws {
        try await authorize(request, identity: identity)
    }

    /// The requests the gatekeepers allow, in the order given. Each is decided and recorded as
    /// ``authorize(_:)`` would; a denied or failed one is left out.
    ///
    /// - Throws: `CancellationError` when the task is cancelled; no partial result.
    public func permitted(_ requests: [AccessRequest]) async throws(CancellationError) -> [AccessRequest] {
        var allowed: [AccessRequest] = []
        for request in requests {
            let verdict = try await decide(request, identity: identity, explained: observer != nil)
            if verdict.isAllowed { allowed.append(request) }
        }
        return allowed
    }

    /// The attributes of the resource a request names, merged into the request before any
    /// gatekeeper is asked; a throw fails the gate.
    package typealias ResourceAttributes = @Sendable () async throws -> [String: String]

    /// ``authorize(_:)`` with the resource checked against `identity` and the resource's
    /// attributes merged in.
    package func authorize(
        _ request: AccessRequest, identity: ResourceIdentity, resourceAttributes: ResourceAttributes? = nil
    ) async throws {
        let decided = try await decided(
            request, identity: identity, explained: observer != nil, resourceAttributes: resourceAttributes)
        if !decided.verdict.isAllowed {
            throw AccessDenied(
                request: decided.request, verdict: decided.verdict, underlyingError: decided.failure)
        }
    }

    /// ``decide(_:)`` with the resource checked against `identity` and the resource's
    /// attributes merged in; `explained` and `whyNot` as in
    /// `decided(_:identity:explained:whyNot:resourceAttributes:)`.
    package func decide(
        _ request: AccessRequest, identity: ResourceIdentity, explained: Bool, whyNot: Bool = false,
        resourceAttributes: ResourceAttributes? = nil
    ) async throws(CancellationError) -> AccessVerdict {
        try await decided(
            request, identity: identity, explained: explained, whyNot: whyNot,
            resourceAttributes: resourceAttributes
        ).verdict
    }

    /// A verdict, the request as it may be shown (masked), and, when a gatekeeper failed, the
    /// error it threw.
    private struct Decided {
        var verdict: AccessVerdict
        var failure: (any Error)?
        var request: AccessRequest
    }

    /// The one decision path: the cancellation check, identity, the resource's attributes, each
    /// gatekeeper in order (through ``AccessPolicy/explain(_:)``), the cancellation check again,
    /// the mask, the records. `explained` says whether the verdict lists every step; `whyNot`,
    /// whether a denial asks its gatekeeper for near misses (never on a load).
    private func decided(
        _ request: AccessRequest, identity: ResourceIdentity, explained: Bool, whyNot: Bool = false,
        resourceAttributes: ResourceAttributes?
    ) async throws(CancellationError) -> Decided {
        if Task.isCancelled { throw CancellationError() }
        var request = request
        let answer: (verdict: AccessVerdict, failure: (any Error)?)
        if let refused = refusedBeforeAsking(request, identity: identity) {
            answer = (refused, nil)
        } else {
            do {
                if let resourceAttributes {
                    request.attributes.merge(try await resourceAttributes()) { _, resource in resource }
                }
                answer = try await ask(request, explained: explained, whyNot: whyNot)
            } catch {
                if Task.isCancelled { throw CancellationError() }
                let step = AccessVerdict.Step(
                    gatekeeper: Self.attributesGatekeeper, outcome: .failed,
                    reason: ReasonLimit.bounded(
                        "the resource's attributes could not be read: \(describe(error))"))
                answer = (AccessVerdict(step, steps: explained ? [step] : []), error)
            }
        }
        if answer.verdict.isAllowed, Task.isCancelled { throw CancellationError() }
        let shown = Redaction(mask: mask, request: request)
        let decided = Decided(
            verdict: shown.verdict(answer.verdict), failure: answer.failure, request: shown.request)
        if let observer {
            report(request, decided, to: observer)
        }
        return decided
    }

    /// The verdict for a request refused before any gatekeeper is asked: its resource breaks
    /// `identity`, its subject or action is not NFC text free of control characters, or the gate
    /// has no gatekeepers.
    private func refusedBeforeAsking(_ request: AccessRequest, identity: ResourceIdentity) -> AccessVerdict? {
        let problem =
            identity.violation(in: request.resource).map { "the resource \($0)" }
            ?? Self.textProblem(subject: request.subject, action: request.action)
        if let problem {
            return AccessVerdict(
                outcome: .denied, gatekeeper: Self.identityGatekeeper, reason: ReasonLimit.bounded(problem))
        }
        if gatekeepers.isEmpty {
            return AccessVerdict(
                outcome: .denied, gatekeeper: Self.noGatekeeper,
                reason: "no gatekeepers are configured; add AlwaysAllow if everything may pass")
        }
        return nil
    }

    /// Asks each gatekeeper in order until one does not allow; with `whyNot`, asks a gatekeeper
    /// that denied for its near misses.
    private func ask(
        _ request: AccessRequest, explained: Bool, whyNot: Bool
    ) async throws(CancellationError) -> (verdict: AccessVerdict, failure: (any Error)?) {
        var steps: [AccessVerdict.Step] = []
        var last = AccessVerdict.Step(gatekeeper: "", outcome: .allowed)
        var failure: (any Error)?
        var nearMisses: [String] = []
        for gatekeeper in gatekeepers {
            do {
                last = Self.step(gatekeeper.name, try await gatekeeper.explain(request))
                if whyNot, last.outcome == .denied, let rules = gatekeeper as? any NearMissExplaining {
                    nearMisses = (try? await rules.nearMisses(request)) ?? []
                }
            } catch {
                if Task.isCancelled { throw CancellationError() }
                (last, failure) = (Self.failed(gatekeeper.name, error), error)
            }
            if explained { steps.append(last) }
            if last.outcome != .allowed { break }
        }
        var verdict = AccessVerdict(last, steps: steps)
        verdict.nearMisses = nearMisses
        return (verdict, failure)
    }

    /// The step of a gatekeeper that threw: the error's text is the reason, within
    /// ``ReasonLimit``.
    private static func failed(_ gatekeeper: String, _ error: any Error) -> AccessVerdict.Step {
        AccessVerdict.Step(
            gatekeeper: gatekeeper, outcome: .failed, reason: ReasonLimit.bounded(describe(error)))
    }

    /// The step of a gatekeeper that answered: a note on an allow is its reason, and is added to
    /// a denial's reason; either within ``ReasonLimit``.
    private static func step(_ gatekeeper: String, _ answer: AccessExplanation) -> AccessVerdict.Step {
        switch answer.decision {
        case .allow:
            return AccessVerdict.Step(
                gatekeeper: gatekeeper, outcome: .allowed, reason: answer.note.map(ReasonLimit.bounded),
                rule: answer.rule)
        case .deny(let reason):
            return AccessVerdict.Step(
                gatekeeper: gatekeeper, outcome: .denied,
                reason: ReasonLimit.bounded(answer.note.map { "\(reason) (\($0))" } ?? reason),
                rule: answer.rule)
        }
    }

    /// Records the verdict, then starts asking each shadow gatekeeper off the caller's path (see
    /// ``shadow``) about `request`; every record of the call carries one request id and shows
    /// the masked request.
    private func report(_ request: AccessRequest, _ decided: Decided, to observer: any AccessObserver) {
        let id = UUID()
        let shown = Redaction(mask: mask, request: request)
        observer.observe(
            AccessRecord(
                request: decided.request, verdict: decided.verdict, instant: clock(), service: service,
                requestID: id))
        for gatekeeper in shadow {
            guard let ticket = shadowAsks.begin() else {
                let reason =
                    "not asked: \(shadowAsks.limit) shadow asks of this gate were in flight, the most at once"
                let step = AccessVerdict.Step(gatekeeper: gatekeeper.name, outcome: .failed, reason: reason)
                observer.observe(
                    AccessRecord(
                        request: decided.request, verdict: AccessVerdict(step, steps: [step]),
                        instant: clock(), service: service, requestID: id, isShadow: true, isDropped: true))
                continue
            }
            // Unstructured, not a child: it inherits the task-local values (the caller's
            // AccessContext) but not the caller's cancellation, and nothing waits for it.
            Task { [clock, service, shadowAsks] in
                let step: AccessVerdict.Step
                do {
                    step = Self.step(gatekeeper.name, try await gatekeeper.explain(request))
                } catch {
                    step = Self.failed(gatekeeper.name, error)
                }
                observer.observe(
                    AccessRecord(
                        request: shown.request, verdict: shown.verdict(AccessVerdict(step, steps: [step])),
                        instant: clock(), service: service, requestID: id, isShadow: true))
                shadowAsks.end(ticket)
            }
        }
    }

    /// The most shadow asks one gate (with its copies) has in flight at once: 64. An ask beyond
    /// it is dropped and recorded as such (``AccessRecord/isDropped``), so a shadow that is slow
    /// or never answers holds at most this many tasks, whatever the traffic.
    package static let maximumShadowAsksInFlight = 64

    /// Returns when every shadow gatekeeper asked before the call has answered (or failed) and
    /// its record has been given to the observer: call it before closing a decision log. A
    /// shadow that never answers keeps it waiting, so give a shadow a deadline.
    public func waitForShadowAnswers() async {
        await shadowAsks.waitForThoseInFlight()
    }

    /// Why `subject` or `action` is not NFC text free of control characters; `nil` when both are.
    static func textProblem(subject: String?, action: AccessAction) -> String? {
        subject.flatMap(ResourceIdentity.text.violation).map { "the subject \($0)" }
            ?? ResourceIdentity.text.violation(in: action.rawValue).map { "the action \($0)" }
    }

    /// The name that stands for the gate's identity check in verdicts and denials.
    package static let identityGatekeeper = "(identity)"
    /// The name that stands for a gate with no gatekeepers in verdicts and denials.
    package static let noGatekeeper = "(none)"
    /// The name that stands for a proxy's resource attributes when reading them failed.
    package static let attributesGatekeeper = "(attributes)"
}

extension AccessVerdict {
    /// The verdict a step decides: its outcome, gatekeeper, reason and rule.
    fileprivate init(_ step: Step, steps: [Step]) {
        self.init(
            outcome: step.outcome, gatekeeper: step.gatekeeper, reason: step.reason, rule: step.rule,
            steps: steps)
    }
}
