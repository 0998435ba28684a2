import GatehouseCore

extension RulesFile {
    /// The line of every rule, in file order.
    package var ruleLines: [Int] { indexedRules.map { Int($0.line) }.sorted() }

    /// Why the rule on `line` did not decide `request`, one note per reason: what keeps it from
    /// matching (the action, the resource, the subject, a condition) or, when it matches, the rule
    /// that decided instead. Empty when it decided; `nil` when no rule is on that line.
    package func whyNot(line: Int, for request: AccessRequest) -> [String]? {
        guard let rule = indexedRules.first(where: { Int($0.line) == line }) else { return nil }
        let verdict = decide(request)
        if verdict?.line == line { return [] }
        let action = actions[Int(rule.action)]
        var failures: [String] = []
        if !AccessPlan.Pattern.matches(action, request.action.rawValue) {
            failures.append("the action \(request.action.rawValue) is not \(action)")
        }
        failures += Self.resourceFailures(resources.patterns[Int(rule.resource)], request)?.notes ?? []
        let memberOf = request.subject.map(groups(of:)) ?? []
        failures += subjectFailures(rule, request, memberOf)
        failures += (conditions[rule.line] ?? []).compactMap { $0.failure(in: request) }
        if failures.isEmpty, let verdict {
            let other = "\(fileName):\(verdict.line)"
            failures.append(
                verdict.effect == .deny && rule.effect == .allow
                    ? "it allows, but \(other) denies" : "it matches, but \(other) decides")
        }
        return failures
    }
}
