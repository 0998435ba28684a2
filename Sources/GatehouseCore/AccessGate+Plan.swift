import Foundation

extension AccessGate {
    /// What the gate allows for one caller: an ``AccessPlan`` over every resource name.
    ///
    /// The plan is the gatekeepers' parts joined as the gate joins their decisions (each must
    /// allow; a failure denies), checked against the gate's resource identity rule. A subject or
    /// action that is not NFC text free of control characters, or a gate with no gatekeepers,
    /// gives a plan that permits nothing. Shadow gatekeepers are not asked and nothing is
    /// recorded: a plan is not a decision. A gatekeeper whose planning throws fails closed: its
    /// part allows and denies nothing, and ``Not`` cannot turn that into an allow.
    ///
    /// - Parameters:
    ///   - subject: The caller, or `nil` for an anonymous one.
    ///   - action: The action, such as `.read`.
    ///   - attributes: The request attributes (conditions and placeholders are folded with them).
    ///   - instant: The instant time windows are folded at; `nil` for each one's own clock.
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
    /// `policy`'s part, or ``Part/failed`` when its planning throws; `CancellationError` when
    /// the task is cancelled.
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

    /// The parts of `policies`, in order; see ``part(of:for:)``.
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
    /// The members' parts joined as ``evaluate(_:)`` joins their decisions: the first member
    /// that does not allow decides. Empty: failed, as a decision throws.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .allOf(try await AccessPlan.parts(of: gatekeepers, for: request))
    }
}

extension AnyOf {
    /// The members' parts joined as ``evaluate(_:)`` joins their decisions: the first member
    /// that does not deny decides. Empty: failed, as a decision throws.
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
/// only about names the plan may permit (a database query, a folder walk that skips folders).
///
/// The proxy hands ``keys(under:permittedBy:)`` the plan's ``AccessPlan/candidates`` and still
/// checks every name that comes back, so a base that filters wrongly cannot show a name the
/// gate denies; it can only leave out names it should have listed.
public protocol FilteredListing<Key>: ResourceListing {
    /// The keys under the folder `prefix` that `plan` may permit, recursively, sorted as
    /// ``ResourceListing/keys(under:)`` sorts: at least every key there that
    /// ``AccessPlan/permits(_:)`` accepts (more is allowed).
    ///
    /// - Throws: The service's own error, as ``ResourceListing/keys(under:)`` does.
    func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [Key]
}

extension AccessProxy where Base: ResourceListing {
    /// The base's keys under `prefix`: those a plan for the current caller may permit when the
    /// base can filter (``FilteredListing``), otherwise all of them. The caller checks each.
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
