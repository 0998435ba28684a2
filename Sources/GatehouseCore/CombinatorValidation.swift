// The combinators forward a check ahead of decisions to their members, so that a rules file
// nested in `allOf`, `anyOf` or `not` is checked like one at the top.

extension AllOf: ValidatingPolicy {
    /// The issues of every member that can be checked ahead, each under `policies[i]`.
    public func validationIssues() async -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for (index, policy) in policies.enumerated() {
            issues += await memberIssues(policy, at: "policies[\(index)]")
        }
        return issues
    }
}

extension AnyOf: ValidatingPolicy {
    /// The issues of every member that can be checked ahead, each under `policies[i]`.
    public func validationIssues() async -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for (index, policy) in policies.enumerated() {
            issues += await memberIssues(policy, at: "policies[\(index)]")
        }
        return issues
    }
}

extension Not: ValidatingPolicy {
    /// The issues of the inverted policy, when it can be checked ahead, under `policy`.
    public func validationIssues() async -> [ValidationIssue] {
        await memberIssues(policy, at: "policy")
    }
}
