import GatehouseCore

extension RulesFile {
    static let nearMissLimit = 5
    /// Past this many rules, near misses are looked for only among the rules of the matching
    /// patterns, so that explaining a denial costs no more than deciding it.
    static let nearMissScanLimit = 1_000

    /// For a denied request, the allow rules that nearly allowed it, one line each, such as
    /// `documents.rules:3: erin is not a member of @editors`: first those whose resource matches
    /// (or would, with values for its placeholders), then those naming the subject or its groups.
    package func nearMisses(for request: AccessRequest) -> [String] {
        let verdict = decide(request)
        guard verdict?.effect != .allow else { return [] }
        let memberOf = request.subject.map(groups(of:)) ?? []
        // Rank 0: the resource matches (or would); 1: the rule names the subject.
        var misses: [(rank: Int, line: Int32, failures: [String])] = []
        let actionMatches = actions.map { AccessPlan.Pattern.matches($0, request.action.rawValue) }
        var matching = Set<Int>()
        resources.forEachMatch(of: request.resource, values: request) { pattern in
            matching.insert(pattern)
            return false
        }
        let patterns =
            ruleCount <= Self.nearMissScanLimit ? Array(resources.patterns.indices) : matching.sorted()
        for pattern in patterns {
            // Each read once per pattern, and only when a rule of the pattern needs it.
            let matches = matching.contains(pattern)
            lazy var hasPlaceholder = resources.patterns[pattern].utf8.contains(AccessPlan.Pattern.openBrace)
            lazy var resource = matches ? nil : Self.resourceFailures(resources.patterns[pattern], request)
            for position in starts[pattern]..<starts[pattern + 1] {
                let rule = indexedRules[Int(position)]
                guard rule.effect == .allow, actionMatches[Int(rule.action)],
                    matches || hasPlaceholder || namesSubject(rule, request, memberOf)
                else { continue }
                let isNearest = resource == nil || resource?.matchesWithoutValues == true
                guard isNearest || namesSubject(rule, request, memberOf) else { continue }
                var failures = (resource?.notes ?? []) + subjectFailures(rule, request, memberOf)
                failures += (conditions[rule.line] ?? []).compactMap { $0.failure(in: request) }
                if failures.isEmpty, let denyingLine = verdict?.line {
                    failures = ["allows, but \(fileName):\(denyingLine) denies"]
                }
                misses.append((isNearest ? 0 : 1, rule.line, failures))
            }
        }
        let ordered = misses.sorted { ($0.rank, $0.line) < ($1.rank, $1.line) }
        return ordered.prefix(Self.nearMissLimit).map {
            "\(fileName):\($0.line): \($0.failures.joined(separator: "; "))"
        }
    }

    /// What keeps a resource pattern from matching, `nil` when it matches: placeholders without a
    /// value (and whether it matches with them read as `*`), or the resource itself.
    static func resourceFailures(
        _ pattern: String, _ request: AccessRequest
    ) -> (notes: [String], matchesWithoutValues: Bool)? {
        if AccessPlan.Pattern.matches(pattern, request.resource, values: request) { return nil }
        var missing: [String] = []
        var loose = ""
        var rest = pattern[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = rest[rest.index(after: open)..<close]
            loose += rest[..<open]
            if AccessPlan.Pattern.placeholderValue(name, in: request) == nil {
                missing.append("the placeholder {\(name)} has no value")
                loose += "*"
            } else {
                loose += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        loose += rest
        if !missing.isEmpty, AccessPlan.Pattern.matches(loose, request.resource, values: request) {
            return (missing, true)
        }
        return (["the resource does not match \(pattern)"], false)
    }

    func subjectFailures(
        _ rule: IndexedRule, _ request: AccessRequest, _ memberOf: Set<String>
    ) -> [String] {
        let written = rule.writtenSubject
        guard let subject = request.subject else {
            return rule.subjectKind == .any ? [] : ["the request has no subject (the rule names \(written))"]
        }
        switch rule.subjectKind {
        case .any: return []
        case .exact:
            return AccessPlan.Pattern.sameBytes(rule.subject, subject) ? [] : ["\(subject) is not \(written)"]
        case .pattern:
            return AccessPlan.Pattern.matches(rule.subject, subject)
                ? [] : ["\(subject) does not match \(written)"]
        case .group:
            return memberOf.contains(rule.subject) ? [] : ["\(subject) is not a member of \(written)"]
        }
    }

    private func namesSubject(_ rule: IndexedRule, _ request: AccessRequest, _ memberOf: Set<String>) -> Bool
    {
        (rule.subjectKind == .exact || rule.subjectKind == .group)
            && subjectFailures(rule, request, memberOf).isEmpty
    }
}

extension RuleCondition {
    /// Why the condition does not hold in `request`, naming the value it found; `nil` when it holds.
    func failure(in request: AccessRequest) -> String? {
        guard !holds(in: request) else { return nil }
        let found = request.attributes[key].map { "\(key) is \($0)" } ?? "\(key) is missing"
        return "the condition \(key)=\(value) is not met (\(found))"
    }
}
