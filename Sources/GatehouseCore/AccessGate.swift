import Foundation

/// The gatekeepers on their own, without a service behind them: asks them in order and gives an
/// explained verdict, a thrown ``AccessDenied``, or a filtered batch. ``AccessProxy`` is a gate
/// plus a service. Before any gatekeeper the resource must keep ``ResourceIdentity`` (else
/// `(identity)` denies); the first gatekeeper that does not allow decides; a throw or an empty
/// gate denies (fail closed); a task cancelled before or while the gate allows gets
/// `CancellationError`. The observer gets one ``AccessRecord`` per verdict and per shadow
/// gatekeeper. See docs/architecture.md.
///
/// ```swift
/// let gate = AccessGate(gatekeepers: [rules], observer: auditLog)
/// try await gate.authorize(AccessRequest(subject: me, action: "share", resource: document))
/// ```
public struct AccessGate: Sendable {
    package let gatekeepers: [NamedGatekeeper]
    package let shadow: [NamedGatekeeper]
    package let observer: (any AccessObserver)?
    package let identity: ResourceIdentity
    package let service: String?
    /// Attribute names whose values read `(masked)` in every record, verdict, denial and reason;
    /// gatekeepers still see the real value.
    public let mask: Set<String>
    let clock: @Sendable () -> Date
    let shadowAsks = ShadowAsks(limit: AccessGate.maximumShadowAsksInFlight)

    /// Where the resources' own attributes come from, keyed by the request's resource; `nil`
    /// when every attribute is the caller's.
    public let resourceAttributes: ResourceAttributes<String>?

    /// Creates a gate that asks `gatekeepers` in order; `clock` stamps records and `service`
    /// names the service in each. `shadow` gatekeepers are asked off the caller's path and
    /// recorded (``AccessRecord/isShadow``), never enforced. Use ``ResourceIdentity/text`` as
    /// `identity` for resources that are not paths. With `resourceAttributes`, every decision
    /// and plan reads the resource's attributes first, and a caller's value for a name they
    /// take is dropped.
    public init(
        gatekeepers: [any AccessPolicy],
        shadow: [any AccessPolicy] = [],
        observer: (any AccessObserver)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        identity: ResourceIdentity = .path,
        service: String? = nil,
        mask: Set<String> = [],
        resourceAttributes: ResourceAttributes<String>? = nil
    ) {
        self.init(
            named: gatekeepers.map { NamedGatekeeper($0) }, shadow: shadow.map { NamedGatekeeper($0) },
            observer: observer, clock: clock, identity: identity, service: service, mask: mask,
            resourceAttributes: resourceAttributes)
    }

    /// A gate whose gatekeepers are shown by the names given with them (a configuration's).
    package init(
        named gatekeepers: [NamedGatekeeper],
        shadow: [NamedGatekeeper] = [],
        observer: (any AccessObserver)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        identity: ResourceIdentity = .path,
        service: String? = nil,
        mask: Set<String> = [],
        resourceAttributes: ResourceAttributes<String>? = nil
    ) {
        self.gatekeepers = gatekeepers
        self.shadow = shadow
        self.observer = observer
        self.clock = clock
        self.identity = identity
        self.service = service
        self.mask = mask
        self.resourceAttributes = resourceAttributes
    }

    /// Asks the gatekeepers about `request` and records an explained verdict, with
    /// ``AccessVerdict/nearMisses`` for a denial by rules.
    ///
    /// - Throws: `CancellationError` only; a denial or a failure is a verdict, not an error.
    public func decide(_ request: AccessRequest) async throws(CancellationError) -> AccessVerdict {
        try await decide(request, identity: identity, explained: true, whyNot: true)
    }

    /// Asks the gatekeepers about `request`; returns when they all allow.
    ///
    /// - Throws: ``AccessDenied`` when the verdict is not an allow; `CancellationError`.
    public func authorize(_ request: AccessRequest) async throws {
        try await authorize(request, identity: identity)
    }

    /// The requests the gatekeepers allow, in order, each decided as ``authorize(_:)`` would.
    ///
    /// - Throws: `CancellationError` when the task is cancelled; no partial result.
    /// Each gatekeeper is asked once for all the requests the ones before it allowed
    /// (``AccessPolicy/explain(batch:)``), so one that can answers them together.
    public func permitted(_ requests: [AccessRequest]) async throws(CancellationError) -> [AccessRequest] {
        let verdicts = try await decide(
            requests.map { ($0, nil) }, identity: identity, explained: observer != nil)
        return zip(requests, verdicts).filter { $0.1.isAllowed }.map(\.0)
    }

    /// One resource's own attributes and the names its service takes, read before any
    /// gatekeeper; a throw fails the gate. `nil`: the gate's own ``resourceAttributes``.
    package typealias AttributeRead =
        @Sendable () async throws -> (
            names: ResourceAttributeNames, values: [String: String]
        )

    /// ``authorize(_:)`` under `identity`, with the resource's attributes merged in.
    package func authorize(
        _ request: AccessRequest, identity: ResourceIdentity, resourceAttributes: AttributeRead? = nil
    ) async throws {
        let decided = try await decided(
            request, identity: identity, explained: observer != nil, resourceAttributes: resourceAttributes)
        if let denial = decided.denial { throw denial }
    }

    /// ``decide(_:)`` under `identity`, with the resource's attributes merged in.
    package func decide(
        _ request: AccessRequest, identity: ResourceIdentity, explained: Bool, whyNot: Bool = false,
        resourceAttributes: AttributeRead? = nil
    ) async throws(CancellationError) -> AccessVerdict {
        try await decided(
            request, identity: identity, explained: explained, whyNot: whyNot,
            resourceAttributes: resourceAttributes
        ).verdict
    }

    /// ``decide(_:identity:explained:whyNot:resourceAttributes:)`` for each request, in order,
    /// each gatekeeper asked once for all the requests the ones before it allowed
    /// (``AccessPolicy/explain(batch:)``). No partial result: a cancelled task gets
    /// `CancellationError`.
    package func decide(
        _ requests: [(request: AccessRequest, resourceAttributes: AttributeRead?)],
        identity: ResourceIdentity,
        explained: Bool
    ) async throws(CancellationError) -> [AccessVerdict] {
        try await decided(requests, identity: identity, explained: explained, whyNot: false).map(\.verdict)
    }

    /// An answer before masking: the verdict, and the error of a gatekeeper that failed.
    private typealias Answer = (verdict: AccessVerdict, failure: (any Error)?)

    /// The one decision path for one request: ``prepared(_:identity:explained:)``, each
    /// gatekeeper's ``AccessPolicy/explain(_:)`` in order (``Asking``), ``finished(_:_:)``.
    private func decided(
        _ request: AccessRequest, identity: ResourceIdentity, explained: Bool, whyNot: Bool = false,
        resourceAttributes: AttributeRead?
    ) async throws(CancellationError) -> (verdict: AccessVerdict, denial: AccessDenied?) {
        if Task.isCancelled { throw CancellationError() }
        let (request, early) = try await prepared(
            (request, resourceAttributes), identity: identity, explained: explained)
        if let early { return try finished(request, early) }
        var asking = Asking()
        for gatekeeper in gatekeepers {
            let result: Result<AccessExplanation, any Error>
            do {
                result = .success(try await gatekeeper.policy.explain(request))
            } catch {
                result = .failure(error)
            }
            try await asking.take(
                result, from: gatekeeper, about: request, explained: explained, whyNot: whyNot)
            if asking.last.outcome != .allowed { break }
        }
        return try finished(request, asking.answer)
    }

    /// The one decision path for many requests, each as alone: ``prepared(_:identity:explained:)``
    /// for each, every gatekeeper's ``AccessPolicy/explain(batch:)`` once for the requests the
    /// ones before it allowed (``Asking``), ``finished(_:_:)`` for each, in order.
    private func decided(
        _ requests: [(request: AccessRequest, resourceAttributes: AttributeRead?)],
        identity: ResourceIdentity,
        explained: Bool, whyNot: Bool
    ) async throws(CancellationError) -> [(verdict: AccessVerdict, denial: AccessDenied?)] {
        if Task.isCancelled { throw CancellationError() }
        var prepared: [AccessRequest] = []
        var answers: [Answer?] = []
        var asking: [Asking] = []
        var pending: [Int] = []
        for item in requests {
            let (request, early) = try await self.prepared(item, identity: identity, explained: explained)
            if early == nil { pending.append(prepared.count) }
            prepared.append(request)
            answers.append(early)
            asking.append(Asking())
        }
        for gatekeeper in gatekeepers where !pending.isEmpty {
            let results = await gatekeeper.explain(batch: pending.map { prepared[$0] })
            var allowed: [Int] = []
            for (index, result) in zip(pending, results) {
                try await asking[index].take(
                    result, from: gatekeeper, about: prepared[index], explained: explained, whyNot: whyNot)
                if asking[index].last.outcome == .allowed { allowed.append(index) }
            }
            pending = allowed
        }
        var results: [(verdict: AccessVerdict, denial: AccessDenied?)] = []
        for index in prepared.indices {
            results.append(try finished(prepared[index], answers[index] ?? asking[index].answer))
        }
        return results
    }

    /// The request as the gatekeepers see it (the resource's attributes merged in, the caller's
    /// claims to them dropped), and its answer when no gatekeeper is to be asked: refused before
    /// asking, or its attributes could not be read.
    private func prepared(
        _ item: (request: AccessRequest, resourceAttributes: AttributeRead?), identity: ResourceIdentity,
        explained: Bool
    ) async throws(CancellationError) -> (request: AccessRequest, early: Answer?) {
        // Whose each attribute is, the gate says: a caller never marks its own as the resource's.
        var request = item.request
        request.resourceAttributeNames = .none
        if let refused = refusedBeforeAsking(request, identity: identity) { return (request, (refused, nil)) }
        do {
            if let read = item.resourceAttributes ?? attributeRead(of: request.resource) {
                let (names, values) = try await read()
                request = try request.withResourceAttributes(values, names: names)
            }
            return (request, nil)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let step = AccessVerdict.Step(
                gatekeeper: "(attributes)", outcome: .failed,
                reason: ReasonLimit.bounded("the resource's attributes could not be read: \(describe(error))")
            )
            return (request, (AccessVerdict(step, steps: explained ? [step] : []), error))
        }
    }

    /// The masked verdict, recorded, and what `authorize` throws when it is not an allow.
    private func finished(
        _ request: AccessRequest, _ answer: Answer
    ) throws(CancellationError) -> (verdict: AccessVerdict, denial: AccessDenied?) {
        if answer.verdict.isAllowed, Task.isCancelled { throw CancellationError() }
        let shown = Redaction(mask: mask, request: request)
        let verdict = shown.verdict(answer.verdict)
        if let observer { report(shown, verdict, of: request, to: observer) }
        if verdict.isAllowed { return (verdict, nil) }
        return (
            verdict, AccessDenied(request: shown.request, verdict: verdict, underlyingError: answer.failure)
        )
    }

    /// The read of the gate's own ``resourceAttributes`` for `resource`, if it has any.
    private func attributeRead(of resource: String) -> AttributeRead? {
        guard let source = resourceAttributes else { return nil }
        return { try await source.read(resource) }
    }

    /// The denial of a request that breaks `identity` or the text rule, or of an empty gate.
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

    /// One request's way through the gatekeepers: each answer taken in order until one does
    /// not allow (the deciding step), with every step when explained.
    private struct Asking {
        var steps: [AccessVerdict.Step] = []
        var last = AccessVerdict.Step(gatekeeper: "", outcome: .allowed)
        var failure: (any Error)?
        var nearMisses: [String] = []
        var cause: (any Hashable & Sendable)?

        /// Takes `gatekeeper`'s answer about `request`; a denier is asked for near misses when
        /// `whyNot`. A failure while the task is cancelled is the cancellation.
        mutating func take(
            _ result: Result<AccessExplanation, any Error>, from gatekeeper: NamedGatekeeper,
            about request: AccessRequest, explained: Bool, whyNot: Bool
        ) async throws(CancellationError) {
            switch result {
            case .success(let answer):
                last = AccessGate.step(gatekeeper.name, answer)
                if last.outcome == .denied {
                    cause = answer.cause
                    if whyNot { nearMisses = (try? await gatekeeper.policy.nearMisses(request)) ?? [] }
                }
            case .failure(let error):
                if Task.isCancelled { throw CancellationError() }
                (last, failure) = (AccessGate.failed(gatekeeper.name, error), error)
            }
            if explained { steps.append(last) }
        }

        /// The verdict of the deciding step.
        var answer: Answer {
            var verdict = AccessVerdict(last, steps: steps)
            verdict.nearMisses = nearMisses
            verdict.cause = cause
            return (verdict, failure)
        }
    }

    /// The step of a gatekeeper that threw, the error's text its reason.
    fileprivate static func failed(_ gatekeeper: String, _ error: any Error) -> AccessVerdict.Step {
        AccessVerdict.Step(
            gatekeeper: gatekeeper, outcome: .failed, reason: ReasonLimit.bounded(describe(error)))
    }

    /// The step of a gatekeeper that answered; a note is an allow's reason, or added to a denial's.
    fileprivate static func step(_ gatekeeper: String, _ answer: AccessExplanation) -> AccessVerdict.Step {
        let reason =
            switch answer.decision {
            case .allow: answer.note
            case .deny(let reason): answer.note.map { "\(reason) (\($0))" } ?? reason
            }
        return AccessVerdict.Step(
            gatekeeper: gatekeeper, outcome: answer.decision.isAllowed ? .allowed : .denied,
            reason: reason.map(ReasonLimit.bounded), rule: answer.rule)
    }

    /// Records the verdict, then asks each shadow gatekeeper off the caller's path; all records of
    /// the call share one request id.
    private func report(
        _ shown: Redaction, _ verdict: AccessVerdict, of request: AccessRequest,
        to observer: any AccessObserver
    ) {
        let id = UUID()
        observer.observe(
            AccessRecord(
                request: shown.request, verdict: verdict, instant: clock(), service: service, requestID: id))
        let shadowRecord = { @Sendable [clock, service] (verdict: AccessVerdict, dropped: Bool) in
            AccessRecord(
                request: shown.request, verdict: verdict, instant: clock(), service: service, requestID: id,
                isShadow: true, isDropped: dropped)
        }
        for gatekeeper in shadow {
            guard let ticket = shadowAsks.begin() else {
                let reason =
                    "not asked: \(shadowAsks.limit) shadow asks of this gate were in flight, the most at once"
                let step = AccessVerdict.Step(gatekeeper: gatekeeper.name, outcome: .failed, reason: reason)
                observer.observe(shadowRecord(AccessVerdict(step, steps: [step]), true))
                continue
            }
            // Unstructured, not a child: it inherits the task-local values (the caller's
            // AccessContext) but not the caller's cancellation, and nothing waits for it.
            Task { [shadowAsks] in
                let step: AccessVerdict.Step
                do {
                    step = Self.step(gatekeeper.name, try await gatekeeper.policy.explain(request))
                } catch {
                    step = Self.failed(gatekeeper.name, error)
                }
                observer.observe(shadowRecord(shown.verdict(AccessVerdict(step, steps: [step])), false))
                shadowAsks.end(ticket)
            }
        }
    }

    /// Bounds the tasks a slow or silent shadow can hold, whatever the traffic.
    package static let maximumShadowAsksInFlight = 64

    /// Returns when every shadow ask begun before the call is recorded, as before closing a
    /// decision log; a shadow that never answers keeps it waiting.
    public func waitForShadowAnswers() async {
        await shadowAsks.waitForThoseInFlight()
    }

    /// Why `subject` or `action` is not NFC text free of control characters; `nil` when both are.
    static func textProblem(subject: String?, action: AccessAction) -> String? {
        subject.flatMap(ResourceIdentity.text.violation).map { "the subject \($0)" }
            ?? ResourceIdentity.text.violation(in: action.rawValue).map { "the action \($0)" }
    }

    /// The names that stand in verdicts for the identity check and an empty gate.
    package static let identityGatekeeper = "(identity)"
    package static let noGatekeeper = "(none)"
}

extension AccessVerdict {
    /// The verdict a step decides.
    fileprivate init(_ step: Step, steps: [Step]) {
        self.init(
            outcome: step.outcome, gatekeeper: step.gatekeeper, reason: step.reason, rule: step.rule,
            steps: steps)
    }
}
