import GatehouseCore

extension RulesDiff {
    /// What differs between the versions, so that only the classes it can reach are folded.
    ///
    /// Decisions are deny-overrides, so for a class of request only the set of rules that may
    /// hold for it (effect, subject, action, resource, conditions; lines aside) and the subject's
    /// groups decide. A class that no differing rule reaches, for a subject whose groups are the
    /// same in both versions, decides alike in both.
    struct Reach: Sendable {
        /// The rules in one version and not the other (by content), from both versions.
        var rules: [RulesFile.Rule] = []
        /// Whether a differing rule's subject is `*` or a pattern: it may reach any subject.
        var wide = false
        /// The subjects whose groups differ between the versions.
        var regrouped: Set<String> = []

        /// One pass over each version: each old rule's content is kept with its place, and each
        /// new rule's is looked up among them.
        init(old: RulesFile, new: RulesFile) {
            // Each content of the old version: the place of a rule holding it, or `nil` once the
            // new version holds it too.
            var places: [Content: Int?] = [:]
            places.reserveCapacity(old.indexedRules.count)
            for (place, rule) in old.indexedRules.enumerated() {
                places[Content(rule, in: old)] = place
            }
            var added: [RulesFile.Rule] = []
            for rule in new.indexedRules {
                if let found = places.index(forKey: Content(rule, in: new)) {
                    places.values[found] = nil
                } else {
                    added.append(new.written(rule))
                }
            }
            let removed = places.values.compactMap { $0.map { old.written(old.indexedRules[$0]) } }
            rules = removed.sorted { $0.line < $1.line } + added.sorted { $0.line < $1.line }
            wide = rules.contains {
                $0.subject == "*" || !$0.subject.hasPrefix("@") && $0.subject.contains("*")
            }
            for subject in Set(old.groups.subjects + new.groups.subjects)
            where old.groups(of: subject) != new.groups(of: subject) {
                regrouped.insert(subject)
            }
        }

        /// A rule as it decides: everything but its line (conditions all hold, so in any order).
        struct Content: Hashable {
            var allows: Bool
            var subject: String
            var subjectKind: IndexedRule.SubjectKind
            var action: String
            var resource: String
            var conditions: [String]

            init(_ rule: IndexedRule, in file: RulesFile) {
                allows = rule.effect == .allow
                subject = rule.subject
                subjectKind = rule.subjectKind
                action = file.actions[Int(rule.action)]
                resource = file.resources.patterns[Int(rule.resource)]
                let written = rule.hasConditions ? file.conditions[rule.line] ?? [] : []
                conditions = written.map { "\($0.key)=\($0.value)" }.sorted()
            }
        }

        /// The named subjects a differing rule or a change of groups may reach, when no differing
        /// rule is wide: those differing rules name, members (in either version) of the groups they
        /// name, and those whose groups change.
        func namedSubjects(old: RulesFile, new: RulesFile) -> Set<String> {
            var named = regrouped
            var groups: Set<String> = []
            for rule in rules {
                if rule.subject.hasPrefix("@") {
                    groups.insert(String(rule.subject.dropFirst()))
                } else {
                    named.insert(rule.subject)
                }
            }
            guard !groups.isEmpty else { return named }
            for subject in Set(old.groups.subjects + new.groups.subjects)
            where !old.groups(of: subject).isDisjoint(with: groups)
                || !new.groups(of: subject).isDisjoint(with: groups)
            {
                named.insert(subject)
            }
            return named
        }

        /// The action fields of the differing rules that may hold for a subject (`nil`: no subject)
        /// in either version; `nil` when every action may change (the subject's groups differ).
        func actions(for subject: String?, old: RulesFile, new: RulesFile) -> [String]? {
            if let subject, regrouped.contains(subject) { return nil }
            let groups = subject.map { old.groups(of: $0).union(new.groups(of: $0)) } ?? []
            return rules.filter { rule in
                if rule.subject == "*" { return true }
                guard let subject else { return false }
                if rule.subject.hasPrefix("@") { return groups.contains(String(rule.subject.dropFirst())) }
                return AccessPlan.Pattern.matches(rule.subject, subject)
            }.map(\.action)
        }
    }
}
