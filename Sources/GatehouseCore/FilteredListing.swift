/// A listing that can filter by a plan, so that a listing through ``AccessProxy`` asks the gate
/// only about names the plan may permit. The proxy still checks every name that comes back, so
/// a base that filters wrongly can only leave names out, never show one the gate denies.
public protocol FilteredListing<Key>: ResourceListing {
    /// ``ResourceListing/keys(under:)`` narrowed to at least every key that `plan` permits
    /// (more is allowed).
    func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [Key]
}
