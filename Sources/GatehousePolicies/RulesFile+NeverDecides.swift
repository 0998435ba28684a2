import GatehouseCore

extension RulesFile {
    /// A rule whose removal changes no decision, for any request (subject, action, resource,
    /// attributes, instant), with the rules that make it so.
    package struct NeverDeciding: Sendable, Hashable {
        /// The rule's line.
        package var line: Int
        /// The lines of the rules that cover it: each matches every request it matches, and is an
        /// allow covering an allow, or a deny covering either.
        package var coveredBy: [Int]
    }

    /// The warning for `rule` of the file `fileName`:
    /// `docs.rules:7: this rule never changes a decision: docs.rules:3 covers it`.
    package static func warning(_ rule: NeverDeciding, fileName: String) -> String {
        let covering = rule.coveredBy.map { "\(fileName):\($0)" }
        let who =
            covering.count == 1
            ? "\(covering[0]) covers it"
            : covering.dropLast().joined(separator: ", ") + " and \(covering.last!) cover it"
        return "\(fileName):\(rule.line): this rule never changes a decision: \(who)"
    }

    /// Every rule that never changes a decision, in file order.
    ///
    /// A rule covers another when it matches every request the other matches: its subject, action
    /// and resource patterns each hold the other's (a group holds its members), and its conditions
    /// are among the other's. Removing an allow that another allow or a deny covers changes no
    /// decision (a matching deny still wins, a matching allow still allows), nor removing a deny
    /// that another deny covers. Of rules that cover each other (duplicates), the first stays and
    /// the later ones are reported. The check is sound: a rule reported here changes no decision
    /// when removed; a rule covered only by several rules together is not reported.
    ///
    /// It costs about what deciding one request per resource pattern costs: the patterns that may
    /// cover a rule's are found through the file's pattern index, and among their rules only those
    /// whose subject can hold the rule's are compared.
    package var neverDeciding: [NeverDeciding] {
        // One character no pattern holds stands for a `*` of the narrower pattern (see
        // `patternCovers`); in the unlikely file that holds them all, nothing is reported.
        let used = Set(
            resources.patterns.flatMap(\.unicodeScalars).filter { (0xE000...0xE0FF).contains($0.value) })
        guard
            let fresh = (0xE000...0xE0FF).lazy.compactMap(Unicode.Scalar.init).first(where: {
                !used.contains($0)
            })
        else { return [] }
        let index = SubjectIndex(self)
        var found: [NeverDeciding] = []
        for rule in indexedRules.sorted(by: { $0.line < $1.line }) {
            // The patterns that match the rule's pattern read as text, `*` as the fresh character
            // and placeholders as `*`: the wildcard patterns that cover it, and itself.
            let narrow = resources.patterns[Int(rule.resource)]
            let witness = Self.starringPlaceholders(narrow).replacingOccurrences(
                of: "*", with: String(Character(fresh)))
            var widePatterns: Set<Int> = [Int(rule.resource)]
            _ = resources.forEachMatch(of: witness) { pattern in
                widePatterns.insert(pattern)
                return false
            }
            var covering: [Int32] = []
            for pattern in widePatterns {
                for other in index.candidates(under: pattern, for: rule, memberOf: groups(of:))
                where other.line != rule.line && (other.effect == .deny || rule.effect == .allow)
                    && covers(other, rule)
                    // Of two rules of one effect that cover each other, only the later is reported.
                    && (other.line < rule.line || other.effect != rule.effect || !covers(rule, other))
                {
                    covering.append(other.line)
                }
            }
            if !covering.isEmpty {
                found.append(
                    NeverDeciding(line: Int(rule.line), coveredBy: covering.sorted().map { Int($0) }))
            }
        }
        return found
    }

    /// The rules of each resource pattern by subject: only these can cover a rule with a subject.
    private struct SubjectIndex {
        var exact: [Int: [String: [IndexedRule]]] = [:]
        var groups: [Int: [String: [IndexedRule]]] = [:]
        /// `*` and subject patterns.
        var wide: [Int: [IndexedRule]] = [:]

        init(_ file: RulesFile) {
            for rule in file.indexedRules {
                let pattern = Int(rule.resource)
                switch rule.subjectKind {
                case .exact: exact[pattern, default: [:]][rule.subject, default: []].append(rule)
                case .group: groups[pattern, default: [:]][rule.subject, default: []].append(rule)
                case .any, .pattern: wide[pattern, default: []].append(rule)
                }
            }
        }

        /// The rules under `pattern` whose subject may hold `rule`'s: the same name, a group of
        /// that name, the same group, `*` or a pattern.
        func candidates(under pattern: Int, for rule: IndexedRule, memberOf: (String) -> Set<String>)
            -> [IndexedRule]
        {
            var found = wide[pattern] ?? []
            switch rule.subjectKind {
            case .exact:
                found += exact[pattern]?[rule.subject] ?? []
                if let byGroup = groups[pattern] {
                    for group in memberOf(rule.subject) { found += byGroup[group] ?? [] }
                }
            case .group: found += groups[pattern]?[rule.subject] ?? []
            case .any, .pattern: break
            }
            return found
        }
    }

    /// Whether `wide` matches every request `narrow` matches.
    private func covers(_ wide: IndexedRule, _ narrow: IndexedRule) -> Bool {
        guard subjectCovers(wide, narrow),
            Self.patternCovers(actions[Int(wide.action)], actions[Int(narrow.action)]),
            resourceCovers(resources.patterns[Int(wide.resource)], resources.patterns[Int(narrow.resource)])
        else { return false }
        let narrowConditions = (conditions[narrow.line] ?? []).map { [$0.key, $0.value] }
        return (conditions[wide.line] ?? []).allSatisfy { condition in
            narrowConditions.contains {
                $0[0] == condition.key && AccessPlan.Pattern.sameBytes($0[1], condition.value)
            }
        }
    }

    private func subjectCovers(_ wide: IndexedRule, _ narrow: IndexedRule) -> Bool {
        switch (wide.subjectKind, narrow.subjectKind) {
        case (.any, _): return true
        case (_, .any): return false
        case (.exact, .exact): return AccessPlan.Pattern.sameBytes(wide.subject, narrow.subject)
        case (.pattern, .exact): return AccessPlan.Pattern.matches(wide.subject, narrow.subject)
        case (.pattern, .pattern): return Self.patternCovers(wide.subject, narrow.subject)
        case (.group, .exact): return groups(of: narrow.subject).contains(wide.subject)
        case (.group, .group): return wide.subject == narrow.subject
        default: return false
        }
    }

    /// Whether the resource pattern `wide` matches every resource `narrow` matches, whatever the
    /// placeholders' values: a placeholder in `narrow` is read as `*` (it matches no more than
    /// that); one in `wide` covers only the same pattern.
    private func resourceCovers(_ wide: String, _ narrow: String) -> Bool {
        if wide.utf8.contains(AccessPlan.Pattern.openBrace) {
            return AccessPlan.Pattern.sameBytes(wide, narrow)
        }
        return Self.patternCovers(wide, Self.starringPlaceholders(narrow))
    }

    /// `pattern` with each placeholder `{NAME}` replaced by `*`.
    static func starringPlaceholders(_ pattern: String) -> String {
        Placeholders.substituted(pattern) { _ in .wildcard }.map { $0.runs.joined(separator: "*") } ?? pattern
    }

    /// Whether every text the `*`-pattern `narrow` matches is matched by `wide` (no placeholders).
    ///
    /// `narrow`'s language is inside `wide`'s exactly when `wide` matches `narrow` with each `*`
    /// replaced by a character `wide` does not hold: that character can only be taken by a `*` of
    /// `wide`, and a `*` there takes any run in its place. (Over an alphabet larger than the
    /// pattern's, which Unicode is; matching by bytes keeps to character boundaries, since every
    /// literal run of `wide` is whole UTF-8.)
    static func patternCovers(_ wide: String, _ narrow: String) -> Bool {
        guard
            let fresh = (0xE000...0xE0FF).lazy.compactMap(Unicode.Scalar.init).first(where: { scalar in
                !wide.unicodeScalars.contains(scalar)
            })
        else { return false }
        let witness = narrow.replacingOccurrences(of: "*", with: String(Character(fresh)))
        return AccessPlan.Pattern.matches(wide, witness)
    }
}
