/// A listing that can filter by a plan, so that a listing through ``AccessProxy`` asks the gate
/// only about names the plan may permit. The proxy still checks every name that comes back, so
/// a base that filters wrongly can only leave names out, never show one the gate denies.
public protocol FilteredListing<Key>: ResourceListing {
    /// The resource attributes whose predicates (`AccessPlan.Residual.attribute(_:equals:)`) this
    /// listing decides itself, from the same values its proxy's ``ResourceAttributes`` read (a
    /// database's owner column, say). The proxy keeps those predicates in the plan it passes, and
    /// takes every other as allowing. The default is none.
    var filteredAttributeNames: Set<String> { get }

    /// ``ResourceListing/keys(under:)`` narrowed to at least every key that `plan` permits
    /// (more is allowed); `plan` holds attribute predicates on ``filteredAttributeNames`` only.
    func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [Key]
}

extension FilteredListing {
    /// None: the plan passed holds no attribute predicate.
    public var filteredAttributeNames: Set<String> { [] }
}
