import GatehouseCore

extension RulesPolicy {
    /// Exact: the rules whose subject (groups included), action and conditions hold for the
    /// request, placeholders substituted, allowed patterns minus denied ones.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        rules.plan(request)
    }
}
