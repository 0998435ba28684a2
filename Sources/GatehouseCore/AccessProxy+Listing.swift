/// Listings through the gate: when the base also lists, so does the proxy, and a key the
/// caller may not read is never seen.
///
/// ``keys(under:)`` makes two kinds of decision, each recorded by the observer:
/// 1. **The folder**: action `"list"` on the prefix (`"docs"`; `""` for the root), checked as
///    a key is (the root only as text). A denial throws ``AccessDenied``; the base is not reached.
/// 2. **Each key the base lists**: ``action`` (`"read"` by default), checked as `load` would
///    be, with the resource's attributes. A key that is denied, or whose check fails, is left
///    out: it appears neither in the result nor in any error. The base's order is kept.
extension AccessProxy: ResourceListing where Base: ResourceListing {
    /// Asks whether the folder `prefix` may be listed, lists it in the base, and returns the keys
    /// that may be read, in the base's order.
    ///
    /// - Throws: ``AccessDenied`` when the listing is not allowed (the base is not reached),
    ///   `CancellationError`, or the base's own error, unchanged; never an error about a key.
    public func keys(under prefix: String) async throws -> [Base.Key] {
        let folder = request(action: .list, resource: prefix)
        // The root, "", holds nothing to check; any other folder name is checked as a key is.
        try await gate.authorize(folder, identity: prefix.isEmpty ? .text : gate.identity)
        let listed = try await listedKeys(under: prefix)
        var readable: [Base.Key] = []
        for key in listed {
            // Denied, refused by the identity rule, or a gatekeeper failed: the key stays unseen.
            let verdict = try await gate.decide(
                request(action: action, resource: resourceName(key)), identity: gate.identity,
                explained: gate.observer != nil, resourceAttributes: attributes(of: key))
            if verdict.isAllowed { readable.append(key) }
        }
        return readable
    }
}
