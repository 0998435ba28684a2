import GatehouseCore

extension FilePolicy {
    /// Exact: the rules of the version decisions use now (the last good one under
    /// ``WhenInvalid/keepLastGood``), planned for the request. A file that cannot be used fails
    /// the part, as it fails every decision, so the plan permits nothing that depends on it.
    ///
    /// - Throws: ``RulesFileError`` when the file cannot be used.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        try currentRules().plan(request)
    }
}
