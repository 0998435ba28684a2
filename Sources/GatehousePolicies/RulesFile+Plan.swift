import GatehouseCore

extension RulesFile {
    /// The part of these rules for `request`: where a rule that holds for the caller allows and
    /// none denies, as a decision does.
    ///
    /// A rule that reads an attribute the service takes from its resources (see
    /// `AccessPlan/Request/resourceAttributeNames`) is never folded, neither from a value of the
    /// caller nor as missing: each resource has its own value. A condition on such an attribute
    /// whose value reads only the caller (`owner=alice`, `owner={subject}`) becomes an attribute
    /// predicate, `AccessPlan/Residual/attribute(_:equals:)`, its placeholders folded from the
    /// caller: the part stays exact. A rule that reads such an attribute in a placeholder (in its
    /// resource, `docs/{owner}/*`, or in a condition's value, `tenant={owner}`) has its region,
    /// the names its resource pattern can match with such placeholders read as `*`, left to
    /// `gatekeeper` to decide name by name, as `AccessPlan/Residual/unplanned(_:)`. A deny
    /// still overrides there: a name a certain deny matches is denied, a name only a rule in doubt
    /// could allow or deny is asked.
    func plan(_ request: AccessPlan.Request, gatekeeper: String) -> AccessPlan.Part {
        var certain: [Effect: [AccessPlan.Residual]] = [:]
        var inDoubt: [Effect: [AccessPlan.Residual]] = [:]
        for (rule, region, readsTheResource, condition) in regions(for: request) {
            let names = AccessPlan.Residual.allOf([.matching(region), condition])
            if readsTheResource {
                inDoubt[rule.effect, default: []].append(names)
            } else {
                certain[rule.effect, default: []].append(names)
            }
        }
        let allows = AccessPlan.Residual.anyOf(certain[.allow] ?? [])
        let denies = AccessPlan.Residual.anyOf(certain[.deny] ?? [])
        guard !inDoubt.isEmpty else { return .exact(allowing: .allOf([allows, .not(denies)])) }
        // Where some allow may match, and where some deny may: each rule in doubt holds only where
        // the gatekeeper, asked name by name, says so.
        let ask = AccessPlan.Residual.unplanned(gatekeeper)
        let mayAllow = AccessPlan.Residual.anyOf([allows, .allOf([.anyOf(inDoubt[.allow] ?? []), ask])])
        let mayDeny = AccessPlan.Residual.anyOf([denies, .allOf([.anyOf(inDoubt[.deny] ?? []), ask])])
        return AccessPlan.Part(
            allowed: .allOf([mayAllow, .not(mayDeny)]), denied: .anyOf([mayDeny, .not(mayAllow)]))
    }
}

extension RulesFile {
    /// Each rule (of `candidates`, all by default) that holds for `request` (subject, groups,
    /// action, conditions on the caller's attributes), in file order, with the names its resource
    /// pattern can match for it, whether it reads an attribute the service takes from its
    /// resources in a placeholder, and the attribute predicates its conditions on those attributes
    /// make (`everything` for none).
    func regions(for request: AccessPlan.Request, among candidates: [Rule]? = nil) -> [(
        rule: Rule, region: AccessPlan.Pattern, readsTheResource: Bool, condition: AccessPlan.Residual
    )] {
        let planner = RulesPlanner(request, groups: request.subject.map(groups(of:)) ?? [])
        return (candidates ?? rules).compactMap { rule in
            guard planner.holds(subject: rule.subject),
                AccessPlan.Pattern.matches(rule.action, request.action.rawValue),
                let folded = planner.folded(rule)
            else { return nil }
            return (rule, folded.region, folded.readsTheResource, .allOf(folded.predicates))
        }
    }
}

/// Folds rules for one caller: subject, groups, and the caller's attributes, never a value under
/// a name the service takes from its resources.
private struct RulesPlanner {
    /// The request planned for, with no resource and none of the resources' attributes: where
    /// placeholders and conditions take the caller's values.
    let request: AccessRequest
    let groups: Set<String>
    let resourceAttributeNames: ResourceAttributeNames

    /// One rule for this caller: the names its resource pattern can match, and whether it reads a
    /// resource's attribute (so that it holds for some of those names and not others).
    struct Folded {
        var region: AccessPlan.Pattern
        var readsTheResource: Bool
        /// The attribute predicates of its conditions on the resources' attributes.
        var predicates: [AccessPlan.Residual]
    }

    init(_ plan: AccessPlan.Request, groups: Set<String>) {
        var request = plan.request(for: "")
        request.attributes = request.attributes.filter { !plan.resourceAttributeNames.contains($0.key) }
        self.request = request
        self.groups = groups
        self.resourceAttributeNames = plan.resourceAttributeNames
    }

    /// Whether a rule's subject field names the request's subject: `*` names every subject and
    /// none, `@group` a member, a pattern a subject it matches.
    func holds(subject field: String) -> Bool {
        if field == "*" { return true }
        guard let subject = request.subject else { return false }
        if field.hasPrefix("@") { return groups.contains(String(field.dropFirst())) }
        return AccessPlan.Pattern.matches(field, subject)
    }

    /// `rule`'s region and whether it reads a resource's attribute, or `nil` when it matches no
    /// name for this caller: a condition on the caller's attributes fails, or a placeholder of the
    /// caller's has no usable value.
    func folded(_ rule: RulesFile.Rule) -> Folded? {
        var readsTheResource = false
        var predicates: [AccessPlan.Residual] = []
        for condition in rule.conditions {
            let placeholders = Placeholders.names(in: condition.value)
            if placeholders.contains(where: isResourceAttribute) {
                readsTheResource = true
            } else if isResourceAttribute(condition.name[...]) {
                // The value reads only the caller: fold it, and leave the resource's own value
                // to the predicate. A placeholder with no usable value never matches.
                guard let value = folded(condition.value) else { return nil }
                predicates.append(.attribute(condition.name, equals: value))
            } else if !RuleCondition.holds(condition.name, condition.value, in: request) {
                return nil
            }
        }
        guard let region = substituted(rule.resource) else { return nil }
        return Folded(
            region: region.pattern, readsTheResource: readsTheResource || region.widened,
            predicates: predicates)
    }

    /// A condition's `value` with each placeholder replaced by the caller's value, as
    /// `RuleCondition` compares it (`*` is text), or `nil` when one has no usable value.
    private func folded(_ value: String) -> String? {
        var result = ""
        var name: String?
        for scalar in value.unicodeScalars {
            if var open = name {
                if scalar == "}" {
                    guard let substituted = AccessPlan.Pattern.placeholderValue(Substring(open), in: request)
                    else { return nil }
                    result += substituted
                    name = nil
                } else {
                    open.unicodeScalars.append(scalar)
                    name = open
                }
            } else if scalar == "{" {
                name = ""
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `name` (a condition's key or a placeholder's name) is one the service takes from
    /// its resources; `subject` never is.
    private func isResourceAttribute(_ name: Substring) -> Bool {
        name != "subject" && resourceAttributeNames.contains(String(name))
    }

    /// `spelling` with each of the caller's placeholders replaced by its value and each of the
    /// resource's read as `*` (`widened`), or `nil` when one of the caller's has no usable value.
    private func substituted(_ spelling: String) -> (pattern: AccessPlan.Pattern, widened: Bool)? {
        var widened = false
        let pattern = Placeholders.substituted(spelling) { name in
            if isResourceAttribute(name) {
                widened = true
                return .wildcard
            }
            return AccessPlan.Pattern.placeholderValue(name, in: request).map { .text($0) }
        }
        return pattern.map { ($0, widened) }
    }
}
