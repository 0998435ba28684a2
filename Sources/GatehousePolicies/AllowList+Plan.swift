import GatehouseCore

extension AllowList {
    /// Exact: when the subject is listed (or not checked), the resource patterns (or every
    /// name, when they are not checked); otherwise nothing.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        let subjectListed =
            !checksSubjects || request.subject.map { subjects.contains(match: $0) } ?? anonymousAllowed
        guard subjectListed else { return .exact(allowing: .nothing) }
        guard checksResources else { return .exact(allowing: .everything) }
        return .exact(allowing: .anyOf(resources.patterns.map(AccessPlan.Residual.matching)))
    }
}
