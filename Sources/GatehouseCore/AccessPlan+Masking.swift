extension AccessPlan {
    /// The plan to show people when some of the caller's attribute values are masked: each of
    /// `values` inside a pattern (a substituted `{tenant}`) reads `(masked)`, as in every record
    /// and verdict. For output only: it permits other names than the plan.
    package func masking(_ values: some Sequence<String>) -> AccessPlan {
        // Longest first, so that a value holding another is erased whole.
        let values = Set(values.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
        guard !values.isEmpty else { return self }
        return AccessPlan(residual.masking(values), identity: identity)
    }
}

extension AccessPlan.Residual {
    /// The residual with `values` (longest first) replaced in every pattern's runs.
    fileprivate func masking(_ values: [String]) -> AccessPlan.Residual {
        switch self {
        case .everything, .nothing, .unplanned: self
        case .pattern(let pattern):
            .pattern(
                AccessPlan.Pattern(
                    runs: pattern.runs.map { run in
                        values.reduce(run) { $0.replacingOccurrences(of: $1, with: Redaction.placeholder) }
                    }))
        case .all(let members): .all(members.map { $0.masking(values) })
        case .any(let members): .any(members.map { $0.masking(values) })
        case .complement(let member): .complement(member.masking(values))
        }
    }
}
