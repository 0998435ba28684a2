import GatehouseCore

/// Listing by a plan: the walk of ``keys(under:)`` that opens no folder the plan rules out
/// (``AccessPlan/mayPermitNames(under:)``) and keeps only the files the plan permits. A listing
/// through ``AccessProxy`` uses it, so a subject who may read one folder of a thousand has one
/// folder read, not a thousand.
extension DiskLoader: FilteredListing {
    /// The keys of the regular files under the folder `prefix` that `plan` permits, sorted by
    /// UTF-8 bytes; folders the plan rules out are not opened.
    ///
    /// - Throws: ``DiskLoaderError``, as ``keys(under:)`` does.
    public func keys(under prefix: String, permittedBy plan: AccessPlan) async throws -> [String] {
        try walk(under: prefix, plan: plan).keys
    }
}
