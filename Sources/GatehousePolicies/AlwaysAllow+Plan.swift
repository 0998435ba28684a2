import GatehouseCore

extension AlwaysAllow {
    /// Exact: every name.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .exact(allowing: .everything)
    }
}

extension AlwaysDeny {
    /// Exact: no name.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .exact(allowing: .nothing)
    }
}
