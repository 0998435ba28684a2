import GatehouseCore

extension RulesFile {
    /// A request that an invariant forbids and these rules allow, and the rule that allows it.
    package struct InvariantBreach: Sendable, Hashable {
        /// The broken invariant.
        package var invariant: Invariant
        /// A counterexample: a request the invariant forbids and the rules allow; `nil` when the
        /// search could not decide within its bounds, which refuses the version (fail closed).
        package var request: AccessRequest?
        /// The line of the rule that allows the request (or that the search could not decide).
        package var allowingLine: Int
    }

    /// The error of a version that breaks `breaches` (at least one), each problem on the allowing
    /// rule's line: `docs.rules:4: breaks the invariant guard.invariants:2 (never * read secrets/*):
    /// it allows subject "secrets", action "read", resource "secrets/a"`.
    package func invariantError(_ breaches: [InvariantBreach], invariants: String) -> RulesFileError {
        RulesFileError(
            file: fileName,
            problems: breaches.map { breach in
                RulesFileError.Issue(
                    line: breach.allowingLine, kind: .breaksInvariant,
                    message: breach.request.map {
                        "breaks the invariant \(invariants):\(breach.invariant.line) "
                            + "(\(breach.invariant.text)): it allows \(Self.describe($0))"
                    }
                        ?? "cannot be checked against the invariant \(invariants):\(breach.invariant.line) "
                        + "(\(breach.invariant.text)) within the search's bounds, so the version is refused")
            })
    }

    private static func describe(_ request: AccessRequest) -> String {
        let subject = request.subject.map { "subject \"\($0)\"" } ?? "no subject"
        var text = "\(subject), action \"\(request.action.rawValue)\", resource \"\(request.resource)\""
        if !request.attributes.isEmpty {
            text +=
                ", attributes "
                + request.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }
                .joined(separator: " ")
        }
        return text
    }

    /// One breach of each invariant these rules break, in invariant order; empty when they keep
    /// every one. See ``breach(of:)``.
    package func breaches(of invariants: Invariants) -> [InvariantBreach] {
        let written = rules
        return invariants.lines.compactMap { breach(of: $0, rules: written) }
    }

    /// A request `invariant` forbids and these rules allow, or `nil` when there is none.
    ///
    /// Exact over resources: for each allow that may meet the invariant, a resource it and the
    /// invariant match and no deny that holds for the same caller matches is searched for in the
    /// product of the patterns' automata. Subjects, actions and attribute values are taken from
    /// the patterns' own literals, their pieces, the groups' members and fresh names; attributes
    /// no allow reads are left out, so that no deny reading them holds. Each request found is
    /// decided by the rules before it is reported, so a breach is never reported falsely.
    package func breach(of invariant: Invariant) -> InvariantBreach? {
        breach(of: invariant, rules: rules)
    }

    private func breach(of invariant: Invariant, rules written: [Rule]) -> InvariantBreach? {
        let search = InvariantSearch(file: self, invariant: invariant, rules: written)
        if search.keptByDeniesForEveryone { return nil }
        var undecided: Int?
        for rule in written where rule.effect == .allow {
            switch search.breach(by: rule) {
            case .breach(let found): return found
            case .undecided: undecided = undecided ?? rule.line
            case .kept: break
            }
        }
        return undecided.map { InvariantBreach(invariant: invariant, request: nil, allowingLine: $0) }
    }
}

/// The search for one invariant's breach among a version's rules.
private struct InvariantSearch {
    let file: RulesFile
    let invariant: Invariant
    let resource: AccessPlan.Pattern
    /// The denies that may meet the invariant, in file order.
    let denies: [RulesFile.Rule]
    /// The exact actions written anywhere.
    let actions: [String]
    /// The action patterns written that some action of the invariant's matches.
    let meetingActions: Set<String>

    init(file: RulesFile, invariant: Invariant, rules: [RulesFile.Rule]) {
        self.file = file
        self.invariant = invariant
        resource = AccessPlan.Pattern(invariant.resource)
        let resource = resource
        denies = rules.filter { rule in
            rule.effect == .deny && Self.mayMeet(rule.action, invariant.action)
                && Self.mayMeet(AccessPlan.Pattern(RulesFile.starringPlaceholders(rule.resource)), resource)
        }
        let written = Set(rules.map(\.action))
        meetingActions = written.filter { Self.mayMeet($0, invariant.action) }
        var actions = written.filter { !$0.unicodeScalars.contains("*") }
        if !invariant.action.unicodeScalars.contains("*") { actions.insert(invariant.action) }
        self.actions = actions.sorted()
    }

    /// What the search found for one allow.
    enum Finding {
        /// A request the allow matches, the rules allow and the invariant forbids.
        case breach(RulesFile.InvariantBreach)
        /// No such request.
        case kept
        /// The search went past its bounds.
        case undecided
    }

    /// Whether denies that hold for every request (subject `*`, an action holding the invariant's,
    /// no conditions nor placeholders) cover the invariant's resources: then no allow breaks it.
    var keptByDeniesForEveryone: Bool {
        let always = denies.filter { deny in
            deny.subject == "*" && deny.conditions.isEmpty && !Placeholders.mayHold(deny.resource)
                && RulesFile.patternCovers(deny.action, invariant.action)
        }
        guard !always.isEmpty else { return false }
        return PatternWitness.text(
            matchingAll: [resource], none: always.map { AccessPlan.Pattern($0.resource) })
            == .none
    }

    /// A breach whose request `rule` (an allow) matches, if any.
    func breach(by rule: RulesFile.Rule) -> Finding {
        guard meetingActions.contains(rule.action), Self.mayMeet(Self.starred(rule.resource), resource),
            mayMeetSubject(rule.subject)
        else { return .kept }
        // Denies that hold for every caller the allow holds for: if they cover what the allow
        // (its placeholders read as `*`) shares with the invariant, no caller breaks it.
        let starred = Self.starred(rule.resource)
        let widest = AccessPlan.Pattern(starred)
        let always = denies.filter { holdsWherever(deny: $0, allow: rule) }
        if always.contains(where: { RulesFile.patternCovers($0.resource, starred) }) { return .kept }
        if PatternWitness.text(
            matchingAll: [widest, resource], none: always.map { AccessPlan.Pattern($0.resource) })
            == .none
        {
            return .kept
        }
        let pieces = self.pieces(of: rule)
        let readsSubject =
            ([rule.resource] + rule.conditions.map(\.value)).contains {
                Placeholders.names(in: $0).contains("subject")
            }
        let subjects = subjectCandidates(rule.subject, pieces: readsSubject ? pieces : []).filter(
            invariant.forbids(subject:))
        let actions = actionCandidates(rule.action)
        let reads = readNames(of: rule)
        var tried = 0
        var undecided = false
        var searched: [[AccessPlan.Pattern]: PatternWitness.Outcome] = [:]
        for subject in subjects {
            for attributes in assignments(reads, pieces: pieces, rule: rule, subject: subject) {
                for action in actions {
                    tried += 1
                    if tried > Self.requestLimit { return .undecided }
                    switch breach(
                        by: rule, subject: subject, action: action, attributes: attributes,
                        searched: &searched)
                    {
                    case .breach(let found): return .breach(found)
                    case .undecided: undecided = true
                    case .kept: break
                    }
                }
            }
        }
        return undecided ? .undecided : .kept
    }

    /// The names that are not paths (see ``ResourceIdentity``): empty, a leading or trailing `/`, an
    /// empty, `.` or `..` component.
    static let notPaths = [
        "", "/*", "*/", "*//*", ".", "..", "./*", "../*", "*/.", "*/..", "*/./*", "*/../*",
    ].map(AccessPlan.Pattern.init)

    /// The most callers tried for one allow; past it, the allow is left unsearched.
    static let requestLimit = 20_000

    /// `searched`: the outcome for each allowed pattern and its denied ones, searched once.
    private func breach(
        by rule: RulesFile.Rule, subject: String?, action: String, attributes: [String: String],
        searched: inout [[AccessPlan.Pattern]: PatternWitness.Outcome]
    ) -> Finding {
        let caller = AccessRequest(subject: subject, action: action, resource: "", attributes: attributes)
        guard holds(rule, for: caller), let allowed = Self.substituted(rule.resource, in: caller) else {
            return .kept
        }
        let denied = denies.compactMap { deny in
            holds(deny, for: caller) ? Self.substituted(deny.resource, in: caller) : nil
        }
        let key = [allowed] + denied
        let found =
            searched[key] ?? Self.resourceWitness(allowed: allowed, invariant: resource, denied: denied)
        searched[key] = found
        guard case .found(let name) = found else { return found == .tooLarge ? .undecided : .kept }
        var request = caller
        request.resource = name
        guard invariant.forbids(request), let verdict = file.decide(request), verdict.effect == .allow
        else { return .kept }
        return .breach(
            RulesFile.InvariantBreach(invariant: invariant, request: request, allowingLine: verdict.line))
    }

    /// A name `allowed` and `invariant` match and none of `denied`: a proper path first (what a
    /// proxy lets reach its gates), then any name.
    private static func resourceWitness(
        allowed: AccessPlan.Pattern, invariant: AccessPlan.Pattern, denied: [AccessPlan.Pattern]
    ) -> PatternWitness.Outcome {
        let any = PatternWitness.text(matchingAll: [allowed, invariant], none: denied)
        guard case .found = any else { return any }
        let path = PatternWitness.text(matchingAll: [allowed, invariant], none: denied + notPaths)
        if case .found = path { return path }
        return any
    }

    /// Whether `deny` holds for every request `allow` matches, whatever the resource: no
    /// conditions nor placeholders, a subject and an action that hold `allow`'s.
    private func holdsWherever(deny: RulesFile.Rule, allow: RulesFile.Rule) -> Bool {
        guard deny.conditions.isEmpty, !Placeholders.mayHold(deny.resource),
            RulesFile.patternCovers(deny.action, allow.action)
        else { return false }
        if deny.subject == "*" { return true }
        if deny.subject.hasPrefix("@") || allow.subject.hasPrefix("@") {
            return deny.subject == allow.subject
        }
        return allow.subject != "*" && RulesFile.patternCovers(deny.subject, allow.subject)
    }

    /// Whether `rule`'s subject, action and conditions hold for `caller`.
    private func holds(_ rule: RulesFile.Rule, for caller: AccessRequest) -> Bool {
        guard AccessPlan.Pattern.matches(rule.action, caller.action.rawValue) else { return false }
        switch rule.subject {
        case "*": break
        case let group where group.hasPrefix("@"):
            guard let subject = caller.subject, file.groups(of: subject).contains(String(group.dropFirst()))
            else { return false }
        default:
            guard let subject = caller.subject, AccessPlan.Pattern.matches(rule.subject, subject) else {
                return false
            }
        }
        return rule.conditions.allSatisfy { RuleCondition.holds($0.name, $0.value, in: caller) }
    }

    /// Whether some subject both `field` (a rule's subject) and the invariant name.
    private func mayMeetSubject(_ field: String) -> Bool {
        if field == "*" || field.hasPrefix("@") || invariant.subject == "*" { return true }
        return Self.mayMeet(field, invariant.subject)
    }

    /// `spelling` with each placeholder read as `*`.
    static func starred(_ spelling: String) -> String {
        spelling.utf8.contains(AccessPlan.Pattern.openBrace)
            ? RulesFile.starringPlaceholders(spelling) : spelling
    }

    /// Whether some text matches both spellings; cheap tests first.
    static func mayMeet(_ a: String, _ b: AccessPlan.Pattern) -> Bool {
        // The literal text before the first star of each: one must begin the other.
        let first = a.utf8.prefix { $0 != AccessPlan.Pattern.star }
        let other = b.runs[0].utf8
        guard first.starts(with: other) || other.starts(with: first) else { return false }
        return mayMeet(AccessPlan.Pattern(a), b)
    }

    /// Whether some text matches both patterns; cheap tests first.
    static func mayMeet(_ a: String, _ b: String) -> Bool {
        mayMeet(AccessPlan.Pattern(a), AccessPlan.Pattern(b))
    }

    static func mayMeet(_ a: AccessPlan.Pattern, _ b: AccessPlan.Pattern) -> Bool {
        let (aFirst, bFirst) = (a.runs[0].utf8, b.runs[0].utf8)
        guard aFirst.starts(with: bFirst) || bFirst.starts(with: aFirst) else { return false }
        let (aLast, bLast) = (
            a.runs[a.runs.count - 1].utf8.reversed(), b.runs[b.runs.count - 1].utf8.reversed()
        )
        guard aLast.starts(with: bLast) || bLast.starts(with: aLast) else { return false }
        if a.runs.count == 1 { return b.matches(a.runs[0]) }
        if b.runs.count == 1 { return a.matches(b.runs[0]) }
        return PatternWitness.text(matchingAll: [a, b], none: []) != .none
    }

    /// Texts a subject or attribute value may be: the components of the invariant's and the
    /// allow's literal runs and every piece of them, and a fresh name.
    private func pieces(of rule: RulesFile.Rule) -> [String] {
        var texts: Set<String> = []
        var used = Set(invariant.resource.unicodeScalars).union(rule.resource.unicodeScalars)
        used.formUnion(invariant.subject.unicodeScalars)
        for spelling in [invariant.resource, RulesFile.starringPlaceholders(rule.resource)] {
            // By scalar, as the engine reads `/` and `*`.
            for component in spelling.unicodeScalars.split(separator: "/").map({ String($0) }) {
                for run in component.unicodeScalars.split(separator: "*") where run.count <= 32 {
                    let scalars = Array(run)
                    for start in scalars.indices {
                        for end in (start + 1)...scalars.count {
                            var piece = ""
                            piece.unicodeScalars.append(contentsOf: scalars[start..<end])
                            texts.insert(piece)
                        }
                    }
                }
                texts.insert(String(String.UnicodeScalarView(component.unicodeScalars.filter { $0 != "*" })))
            }
        }
        for condition in rule.conditions where !Placeholders.mayHold(condition.value) {
            texts.insert(condition.value)
        }
        if let fresh = PatternWitness.freshScalar(avoiding: used) {
            texts.insert(String(Character(fresh)))
            texts.insert(invariant.subject.replacingOccurrences(of: "*", with: String(Character(fresh))))
        }
        return texts.filter { !$0.isEmpty }.sorted()
    }

    /// The subjects to try for an allow whose subject field is `field`.
    private func subjectCandidates(_ field: String, pieces: [String]) -> [String?] {
        if field.hasPrefix("@") {
            let group = String(field.dropFirst())
            return file.groups.subjects.filter { file.groups(of: $0).contains(group) }.sorted()
        }
        guard field.unicodeScalars.contains("*") else { return [field] }
        var texts = Set(pieces)
        if !invariant.subject.unicodeScalars.contains("*") { texts.insert(invariant.subject) }
        // A fresh character no subject pattern holds, so a name made with it escapes every deny
        // whose subject does not have to match it.
        var used = Set(field.unicodeScalars).union(invariant.subject.unicodeScalars)
        for deny in denies { used.formUnion(deny.subject.unicodeScalars) }
        if let fresh = PatternWitness.freshScalar(avoiding: used).map({ String(Character($0)) }) {
            texts.insert(field.replacingOccurrences(of: "*", with: fresh))
            texts.insert(invariant.subject.replacingOccurrences(of: "*", with: fresh))
        }
        if case .found(let shortest) = PatternWitness.text(
            matchingAll: [AccessPlan.Pattern(field), AccessPlan.Pattern(invariant.subject)], none: [])
        {
            texts.insert(shortest)
        }
        let matching: [String?] = texts.filter { AccessPlan.Pattern.matches(field, $0) }.sorted()
        return field == "*" ? [nil] + matching : matching
    }

    /// The actions to try for an allow whose action pattern is `field`.
    private func actionCandidates(_ field: String) -> [String] {
        var found = actions.filter {
            AccessPlan.Pattern.matches(field, $0) && AccessPlan.Pattern.matches(invariant.action, $0)
        }
        let used = Set(field.unicodeScalars).union(invariant.action.unicodeScalars)
        if let fresh = PatternWitness.freshScalar(avoiding: used).map({ String(Character($0)) }) {
            for filled in [field, invariant.action].map({ $0.replacingOccurrences(of: "*", with: fresh) })
            where AccessPlan.Pattern.matches(field, filled)
                && AccessPlan.Pattern.matches(invariant.action, filled)
                && !found.contains(filled)
            {
                found.append(filled)
            }
        }
        if case .found(let shortest) = PatternWitness.text(
            matchingAll: [AccessPlan.Pattern(field), AccessPlan.Pattern(invariant.action)], none: []),
            !found.contains(shortest)
        {
            found.append(shortest)
        }
        return found
    }

    /// The attribute names `rule` reads through placeholders and conditions, `subject` aside.
    private func readNames(of rule: RulesFile.Rule) -> [String] {
        var names = Set(Placeholders.names(in: rule.resource).map(String.init))
        for condition in rule.conditions {
            names.insert(condition.name)
            names.formUnion(Placeholders.names(in: condition.value).map(String.init))
        }
        names.remove("subject")
        return names.sorted()
    }

    /// The attributes to try: a literal condition's value for its name, a value made from the
    /// others for a condition with placeholders, and each piece for a name only a placeholder reads.
    private func assignments(_ names: [String], pieces: [String], rule: RulesFile.Rule, subject: String?)
        -> [[String: String]]
    {
        var fixed: [String: String] = [:]
        var derived: [(name: String, value: String)] = []
        for condition in rule.conditions {
            if Placeholders.mayHold(condition.value) {
                derived.append(condition)
            } else {
                fixed[condition.name] = condition.value
            }
        }
        let free = names.filter { name in fixed[name] == nil && !derived.contains { $0.name == name } }
        var results: [[String: String]] = [fixed]
        for name in free {
            var next: [[String: String]] = []
            for partial in results {
                for piece in pieces {
                    var attributes = partial
                    attributes[name] = piece
                    next.append(attributes)
                    if next.count > Self.requestLimit { break }
                }
            }
            results = next
        }
        return results.map { attributes in
            var attributes = attributes
            let caller = AccessRequest(subject: subject, action: "", resource: "", attributes: attributes)
            for condition in derived {
                if let value = Self.substituted(condition.value, in: caller, stars: false) {
                    attributes[condition.name] = value.runs.joined(separator: "*")
                }
            }
            return attributes
        }
    }

    /// `spelling` with each placeholder replaced by the caller's value, each `*` a wildcard; `nil`
    /// when a placeholder has no usable value.
    static func substituted(_ spelling: String, in caller: AccessRequest, stars: Bool = true)
        -> AccessPlan.Pattern?
    {
        Placeholders.substituted(spelling, stars: stars) { name in
            AccessPlan.Pattern.placeholderValue(name, in: caller).map { .text($0) }
        }
    }
}
