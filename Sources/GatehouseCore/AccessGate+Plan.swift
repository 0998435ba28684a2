import Foundation

extension AccessGate {
    /// What the gate allows for one caller: an ``AccessPlan`` over every resource name, the
    /// gatekeepers' parts joined as their decisions are. Fails closed: a subject or action that
    /// breaks the text rule, an empty gate, or a gatekeeper whose planning throws permits nothing
    /// there. Shadow gatekeepers are not asked and nothing is recorded. `instant` folds time
    /// windows (`nil`: each one's own clock). See docs/plans.md.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func plan(
        subject: String?, action: AccessAction, attributes: [String: String] = [:], at instant: Date? = nil
    ) async throws(CancellationError) -> AccessPlan {
        let request = AccessPlan.Request(
            subject: subject, action: action, attributes: attributes, instant: instant)
        if Task.isCancelled { throw CancellationError() }
        guard Self.textProblem(subject: subject, action: action) == nil, !gatekeepers.isEmpty else {
            return AccessPlan(.nothing, identity: identity)
        }
        let parts = try await AccessPlan.parts(of: gatekeepers, for: request)
        if Task.isCancelled { throw CancellationError() }
        return AccessPlan(.allOf(parts.map(\.allowed)), identity: identity)
    }
}

extension AccessPlan {
    /// `policy`'s part, or ``Part/failed`` when its planning throws (fail closed).
    static func part(of policy: any AccessPolicy, for request: Request) async throws(CancellationError)
        -> Part
    {
        do {
            return try await policy.plan(request)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return .failed
        }
    }

    static func parts(of policies: [any AccessPolicy], for request: Request) async throws(CancellationError)
        -> [Part]
    {
        var parts: [Part] = []
        for policy in policies {
            parts.append(try await part(of: policy, for: request))
        }
        return parts
    }
}

extension AccessPolicy {
    /// Cannot plan: each name must be asked of this gatekeeper.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .checkEach(name)
    }
}

extension AllOf {
    /// The members' parts joined as ``evaluate(_:)`` joins their decisions.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .allOf(try await AccessPlan.parts(of: gatekeepers, for: request))
    }
}

extension AnyOf {
    /// The members' parts joined as ``evaluate(_:)`` joins their decisions.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .anyOf(try await AccessPlan.parts(of: gatekeepers, for: request))
    }
}

extension Not {
    /// The member's part inverted; where the member fails, so does `Not`.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        try await AccessPlan.part(of: gatekeeper, for: request).inverted
    }
}

/// A listing that can filter by a plan, so that a listing through ``AccessProxy`` asks the gate
/// only about names the plan may permit. The proxy still checks every name that comes back, so
/// a base that filters wrongly can only leave names out, never show one the gate denies.
public protocol FilteredListing<Key>: ResourceListing {
    /// ``ResourceListing/keys(under:)`` narrowed to at least every key that `plan` permits
    /// (more is allowed).
    func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [Key]
}

extension AccessProxy where Base: ResourceListing {
    /// The base's keys under `prefix`, narrowed by the caller's plan when the base can filter.
    func listedKeys(under prefix: String) async throws -> [Base.Key] {
        guard let filtering = base as? any FilteredListing<Base.Key> else {
            return try await base.keys(under: prefix)
        }
        let context = AccessContext.current
        let plan = try await gate.plan(
            subject: context.subject, action: action, attributes: context.attributes)
        return try await filtering.keys(under: prefix, permittedBy: plan.candidates)
    }
}
