import GatehouseCore

extension RulesFile {
    /// The exact part of these rules for `request`: where a rule that holds for the caller allows
    /// and none denies, as a decision does.
    func plan(_ request: AccessPlan.Request) -> AccessPlan.Part {
        let planner = RulesPlanner(
            request: request.request(for: ""), groups: request.subject.map(groups(of:)) ?? [])
        var allows: [AccessPlan.Residual] = []
        var denies: [AccessPlan.Residual] = []
        for rule in rules {
            guard planner.holds(subject: rule.subject),
                AccessPlan.Pattern(rule.action).matches(request.action.rawValue),
                rule.conditions.allSatisfy({ RuleCondition.holds($0.name, $0.value, in: planner.request) }),
                let resource = planner.substituted(rule.resource)
            else { continue }
            switch rule.effect {
            case .allow: allows.append(.matching(resource))
            case .deny: denies.append(.matching(resource))
            }
        }
        return .exact(allowing: .allOf([.anyOf(allows), .not(.anyOf(denies))]))
    }
}

private struct RulesPlanner {
    /// The request planned for, with no resource: where placeholders take their values.
    let request: AccessRequest
    let groups: Set<String>

    /// Whether a rule's subject field names the request's subject: `*` names every subject and
    /// none, `@group` a member, a pattern a subject it matches.
    func holds(subject field: String) -> Bool {
        if field == "*" { return true }
        guard let subject = request.subject else { return false }
        if field.hasPrefix("@") { return groups.contains(String(field.dropFirst())) }
        return AccessPlan.Pattern(field).matches(subject)
    }

    /// `spelling` with each placeholder replaced by its value, or `nil` when one has no usable value.
    func substituted(_ spelling: String) -> AccessPlan.Pattern? {
        var runs = [""]
        var name: String?
        // By scalar, as the engine reads bytes: a brace or star followed by a combining mark is
        // still a brace or star.
        for scalar in spelling.unicodeScalars {
            if var open = name {
                if scalar == "}" {
                    guard let value = Glob.placeholderValue(Substring(open), in: request) else { return nil }
                    runs[runs.count - 1] += value
                    name = nil
                } else {
                    open.unicodeScalars.append(scalar)
                    name = open
                }
            } else if scalar == "{" {
                name = ""
            } else if scalar == "*" {
                runs.append("")
            } else {
                runs[runs.count - 1].unicodeScalars.append(scalar)
            }
        }
        return AccessPlan.Pattern(runs: runs)
    }
}
