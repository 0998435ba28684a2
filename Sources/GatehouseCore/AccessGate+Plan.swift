import Foundation

extension AccessGate {
    /// What the gate allows for one caller: an ``AccessPlan`` over every resource name, the
    /// gatekeepers' parts joined as their decisions are. Fails closed: a subject or action that
    /// breaks the text rule, an empty gate, a gatekeeper whose planning throws, or resource
    /// attributes whose names cannot be read permit nothing there. A caller's attribute under a
    /// name the gate's ``resourceAttributes`` take is dropped, as in a decision. Shadow
    /// gatekeepers are not asked and nothing is recorded. `instant` folds time windows (`nil`:
    /// each one's own clock). See docs/plans.md.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func plan(
        subject: String?, action: AccessAction, attributes: [String: String] = [:], at instant: Date? = nil
    ) async throws(CancellationError) -> AccessPlan {
        let names: ResourceAttributeNames
        do {
            names = try await resourceAttributes?.currentNames() ?? .none
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return AccessPlan(.nothing, identity: identity)
        }
        return try await plan(
            AccessPlan.Request(
                subject: subject, action: action, attributes: attributes, instant: instant,
                resourceAttributeNames: names))
    }

    /// ``plan(subject:action:attributes:at:)`` for `request`, whose caller attributes under its
    /// ``AccessPlan/Request/resourceAttributeNames`` are dropped.
    package func plan(_ request: AccessPlan.Request) async throws(CancellationError) -> AccessPlan {
        var request = request
        request.attributes = request.attributes.filter { !request.resourceAttributeNames.contains($0.key) }
        if Task.isCancelled { throw CancellationError() }
        guard Self.textProblem(subject: request.subject, action: request.action) == nil, !gatekeepers.isEmpty
        else {
            return AccessPlan(.nothing, identity: identity)
        }
        let parts = try await gatekeepers.plans(request)
        if Task.isCancelled { throw CancellationError() }
        return AccessPlan(.allOf(parts.map(\.allowed)), identity: identity)
    }
}
