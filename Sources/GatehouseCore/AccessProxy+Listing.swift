/// Listings through the gate: when the base also lists, so does the proxy, and a key the
/// caller may not read is never seen. See docs/architecture.md.
extension AccessProxy: ResourceListing where Base: ResourceListing {
    /// Asks whether the folder `prefix` may be listed (action `"list"`), lists it in the base,
    /// and returns the keys ``AccessProxy/action`` may be done to, each checked as `load` is;
    /// a key denied or whose check fails is left out. The keys are decided together: each
    /// gatekeeper is asked once for all of them (``AccessPolicy/explain(batch:)``), so one that
    /// can (a decision service's batch API) answers many in one exchange.
    ///
    /// - Throws: ``AccessDenied`` when the listing is not allowed (the base is not reached),
    ///   `CancellationError`, or the base's own error, unchanged; never an error about a key.
    public func keys(under prefix: String) async throws -> [Base.Key] {
        let folder = request(action: .list, resource: prefix)
        // The root, "", holds nothing to check; any other folder name is checked as a key is.
        try await gate.authorize(
            folder, identity: prefix.isEmpty ? .text : gate.identity, resourceAttributes: folderAttributes())
        let listed = try await listedKeys(under: prefix)
        let verdicts = try await gate.decide(
            listed.map { key in (request(action: action, resource: resourceName(key)), attributes(of: key)) },
            identity: gate.identity, explained: gate.observer != nil)
        return zip(listed, verdicts).filter { $0.1.isAllowed }.map(\.0)
    }

    /// Explains what ``keys(under:)`` of `prefix` would meet at its folder check now, without
    /// reaching the base: the verdict for listing the folder, every gatekeeper's step, and near
    /// misses for a denial by rules. (Each listed key is then decided as ``AccessProxy/decide(_:action:)``
    /// answers for it.)
    ///
    /// - Throws: `CancellationError` only.
    public func decideListing(under prefix: String) async throws(CancellationError) -> AccessVerdict {
        try await gate.decide(
            request(action: .list, resource: prefix), identity: prefix.isEmpty ? .text : gate.identity,
            explained: true, whyNot: true, resourceAttributes: folderAttributes())
    }

    /// The base's keys under `prefix`, narrowed by the caller's plan when the base can filter.
    func listedKeys(under prefix: String) async throws -> [Base.Key] {
        guard let filtering = base as? any FilteredListing<Base.Key> else {
            return try await base.keys(under: prefix)
        }
        // Names that cannot be read leave the listing unfiltered: each key's decision then fails.
        guard let names = try? await currentResourceAttributeNames() else {
            return try await base.keys(under: prefix)
        }
        let context = AccessContext.current
        let plan = try await gate.plan(
            AccessPlan.Request(
                subject: context.subject, action: action, attributes: context.attributes,
                resourceAttributeNames: names))
        return try await filtering.keys(
            under: prefix, permittedBy: plan.candidates(keeping: filtering.filteredAttributeNames))
    }
}
