import GatehouseCore

extension TimeWindow {
    /// Exact: the window folded at the request's instant (or at the window's own clock when the
    /// request has none): everything inside it, nothing outside, failed when the clock reads an
    /// instant the window cannot place (as a decision throws).
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        let decision: AccessDecision
        if let instant = request.instant {
            decision = try self.decision(at: instant)
        } else {
            decision = try await evaluate(request.request(for: ""))
        }
        return .exact(allowing: decision == .allow ? .everything : .nothing)
    }
}
