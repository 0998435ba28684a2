import GatehouseCore

/// Decides exactly whether a residual (patterns combined with `and`, `or` and `not`) holds for
/// some name, and finds the shortest such name: a breadth-first walk of the product of the
/// patterns' automata.
///
/// The alphabet is every character (Unicode scalar) the patterns hold and one fresh character
/// they do not: any character a pattern does not hold acts as the fresh one, so a name exists in
/// the residual exactly when one over this alphabet does. Scalars stand for bytes without loss: a
/// pattern's literal runs are whole UTF-8, so a byte match falls on scalar boundaries.
struct PatternAutomaton {
    /// One pattern as tokens: a scalar, or `nil` for `*`.
    private struct Glob {
        var tokens: [Unicode.Scalar?]
        /// Each state: the token positions reached (sorted), after stars taking nothing.
        var states: [[Int]] = []
        var ids: [[Int]: Int32] = [:]
        var accepting: [Bool] = []
        /// `false` for a state no name goes on from to a match, `true` for one from which every
        /// name does (a star with only stars after it), `nil` otherwise.
        var settled: [Bool?] = []
        /// `state << 21 | scalar` → next state.
        var next: [Int: Int32] = [:]

        init(_ pattern: AccessPlan.Pattern) {
            tokens = []
            for (index, run) in pattern.runs.enumerated() {
                if index > 0 { tokens.append(nil) }
                tokens += run.unicodeScalars.map { $0 }
            }
        }

        mutating func state(_ positions: Set<Int>) -> Int32 {
            var reached = positions
            var work = Array(positions)
            while let position = work.popLast() {
                if position < tokens.count, tokens[position] == nil, reached.insert(position + 1).inserted {
                    work.append(position + 1)
                }
            }
            let key = reached.sorted()
            if let id = ids[key] { return id }
            let id = Int32(states.count)
            ids[key] = id
            states.append(key)
            accepting.append(reached.contains(tokens.count))
            let endless = key.contains { position in
                position < tokens.count && tokens[position...].allSatisfy { $0 == nil }
            }
            settled.append(key.isEmpty ? false : endless ? true : nil)
            return id
        }

        mutating func step(_ state: Int32, _ scalar: Unicode.Scalar) -> Int32 {
            let key = Int(state) << 21 | Int(scalar.value)
            if let known = next[key] { return known }
            var reached: Set<Int> = []
            for position in states[Int(state)] where position < tokens.count {
                if let token = tokens[position] {
                    if token == scalar { reached.insert(position + 1) }
                } else {
                    reached.insert(position)
                }
            }
            let id = self.state(reached)
            next[key] = id
            return id
        }
    }

    private var globs: [Glob] = []
    /// What ``witness(_:)`` found for each residual asked.
    private var found: [AccessPlan.Residual: String?] = [:]
    /// What each walk found.
    private var searched: [Searched: String?] = [:]

    /// A walk: its residual, and whether it looks for a path only.
    private struct Searched: Hashable {
        var residual: AccessPlan.Residual
        var paths: Bool
    }
    private var index: [AccessPlan.Pattern: Int] = [:]
    /// The characters the patterns hold, then the fresh one.
    let alphabet: [Unicode.Scalar]

    /// An automaton for names over `residuals`' patterns and `extra` characters; the fresh
    /// character is the first of `x`, `y`, `z`, digits or private-use ones that none holds.
    init(_ residuals: [AccessPlan.Residual], extra: Set<Unicode.Scalar> = []) {
        var patterns: [AccessPlan.Pattern] = []
        for residual in residuals { Self.collect(residual, into: &patterns) }
        var scalars = extra
        for pattern in patterns where index[pattern] == nil {
            index[pattern] = globs.count
            globs.append(Glob(pattern))
            for run in pattern.runs { scalars.formUnion(run.unicodeScalars) }
        }
        let candidates =
            Array("xyzqkw0123456789".unicodeScalars) + (0xE000...0xF8FF).compactMap(Unicode.Scalar.init)
        let fresh = candidates.first { !scalars.contains($0) }!
        alphabet = scalars.sorted { $0.value < $1.value } + [fresh]
    }

    private static func collect(_ residual: AccessPlan.Residual, into patterns: inout [AccessPlan.Pattern]) {
        switch residual {
        case .everything, .nothing, .unplanned, .attribute: break
        case .pattern(let pattern): patterns.append(pattern)
        case .all(let members), .any(let members): for member in members { collect(member, into: &patterns) }
        case .complement(let member): collect(member, into: &patterns)
        }
    }

    /// The shortest name (fewest characters, then the earliest characters) in `residual`, or `nil`
    /// when it holds for no name. A part that must check each name counts as not holding. A
    /// pattern not given at the start must hold only characters of ``alphabet``.
    ///
    /// The residual is first written as a union of conjunctions (negations pushed inward, unions
    /// distributed while they stay few), and each conjunction is walked on its own: a walk stops
    /// where a pattern it needs can no longer match, or one it excludes matches every longer name.
    mutating func witness(_ residual: AccessPlan.Residual) -> String? {
        if let known = found[residual] { return known }
        var best: String?
        for term in Self.terms(Self.inward(residual, negated: false)) {
            guard let found = search(narrowed(term)) else { continue }
            if let known = best, known.unicodeScalars.count <= found.unicodeScalars.count { continue }
            best = found
        }
        found[residual] = .some(best)
        return best
    }

    /// The shortest name in `residual` that a path may be (not empty, no empty, `.` or `..`
    /// component, so no leading, trailing or doubled `/`), as ``witness(_:)`` finds names, or `nil`
    /// when there is none. The path's shape is one more small automaton in the same walk.
    mutating func pathWitness(_ residual: AccessPlan.Residual) -> String? {
        var best: String?
        for term in Self.terms(Self.inward(residual, negated: false)) {
            guard let found = search(narrowed(term), paths: true) else { continue }
            if let known = best, known.unicodeScalars.count <= found.unicodeScalars.count { continue }
            best = found
        }
        return best
    }

    /// For each set of `patterns` that some name matches exactly, with none of `excluded`, the
    /// shortest such name: never empty, `.` or `..`, never holding `/` or a control character.
    /// Past `limit` states the walk stops, and sets only longer names reach are not found.
    mutating func classes(
        of patterns: [AccessPlan.Pattern], excluding excluded: Set<String>, limit: Int = 50_000
    ) -> [(matches: [Bool], name: String)] {
        let all = patterns
        var scalars: Set<Unicode.Scalar> = [alphabet.last!]
        for pattern in all {
            if index[pattern] == nil {
                index[pattern] = globs.count
                globs.append(Glob(pattern))
            }
            for run in pattern.runs { scalars.formUnion(run.unicodeScalars) }
        }
        // The fresh character first: a stand-in that no rule spells, where one fits.
        let fresh = alphabet.last!
        let letters =
            [fresh]
            + scalars.filter { $0 != "/" && $0 != fresh && !ResourceIdentity.isControl($0) }.sorted {
                $0.value < $1.value
            }
        let members = all.map { index[$0]! }
        let start = members.map { globs[$0].state([0]) }
        // A state with the name's length up to 3: the empty name, `.` and `..` are not stand-ins,
        // so a longer name must go on from the same patterns' states.
        var seen: Set<[Int32]> = [start + [0]]
        var queue: [([Int32], String)] = [(start, "")]
        var head = 0
        var found: [[Bool]: String] = [:]
        var order: [[Bool]] = []
        while head < queue.count && queue.count < limit {
            let (current, name) = queue[head]
            head += 1
            if !name.isEmpty && name != "." && name != "..", !excluded.contains(name) {
                let vector = patterns.indices.map { globs[members[$0]].accepting[Int(current[$0])] }
                if found[vector] == nil {
                    found[vector] = name
                    order.append(vector)
                }
            }
            for scalar in letters {
                var following = current
                for position in members.indices {
                    following[position] = globs[members[position]].step(current[position], scalar)
                }
                var longer = name
                longer.unicodeScalars.append(scalar)
                if seen.insert(following + [Int32(min(longer.unicodeScalars.count, 3))]).inserted {
                    queue.append((following, longer))
                }
            }
        }
        return order.map { ($0, found[$0]!) }
    }

    /// A conjunction without the patterns it excludes that share no name with the patterns it
    /// needs (they exclude nothing), or ``AccessPlan/Residual/nothing`` when one excluded pattern
    /// holds every name a needed one does.
    private mutating func narrowed(_ term: AccessPlan.Residual) -> AccessPlan.Residual {
        guard case .all(let parts) = term else { return term }
        let needed = parts.filter { if case .pattern = $0 { true } else { false } }
        guard !needed.isEmpty else { return term }
        let patterns = needed.compactMap { if case .pattern(let wide) = $0 { wide } else { nil } }
        var kept: [AccessPlan.Residual] = []
        for part in parts {
            if case .complement(let excluded) = part, case .pattern(let pattern) = excluded {
                if needed.contains(where: {
                    if case .pattern(let wide) = $0 {
                        RulesFile.patternCovers(pattern.description, wide.description)
                            && !pattern.description.contains("\\") && !wide.description.contains("\\")
                    } else {
                        false
                    }
                }) {
                    return .nothing
                }
                // It shares no name with the needed ones: it excludes nothing.
                if !Self.meet(patterns + [pattern]) { continue }
            }
            kept.append(part)
        }
        return .allOf(kept)
    }

    /// Whether some name matches every one of `patterns`, decided without a walk. A pattern
    /// without `*` is one name, which the others must match. Patterns with a `*` each share a name
    /// exactly when their first runs agree (each begins the longest) and their last runs agree
    /// (each ends the longest): that longest first run, then every middle run of each pattern, then
    /// the longest last run, is such a name.
    static func meet(_ patterns: [AccessPlan.Pattern]) -> Bool {
        if let exact = patterns.first(where: { $0.runs.count == 1 }) {
            return patterns.allSatisfy { $0.matches(exact.runs[0]) }
        }
        let firsts = patterns.map { Array($0.runs[0].utf8) }
        let lasts = patterns.map { Array($0.runs[$0.runs.count - 1].utf8.reversed()) }
        let first = firsts.max { $0.count < $1.count } ?? []
        let last = lasts.max { $0.count < $1.count } ?? []
        return firsts.allSatisfy { first.starts(with: $0) } && lasts.allSatisfy { last.starts(with: $0) }
    }

    /// `residual` as a union of conjunctions of patterns and excluded patterns, each holding some
    /// name, without an excluded pattern that shares no name with the needed ones, a needed one
    /// that another needed one lies inside, or a conjunction that the others hold already; `nil`
    /// when the residual does not split into few enough conjunctions.
    mutating func normalForm(_ residual: AccessPlan.Residual) -> AccessPlan.Residual? {
        var kept: [AccessPlan.Residual] = []
        for term in Self.terms(Self.inward(residual, negated: false)) {
            let narrow = narrowed(term)
            guard search(narrow) != nil else { continue }
            guard case .all(let parts) = narrow else {
                kept.append(narrow)
                continue
            }
            if parts.contains(where: { if case .any = $0 { true } else { false } }) { return nil }
            let needed = parts.compactMap { part -> AccessPlan.Pattern? in
                if case .pattern(let pattern) = part { pattern } else { nil }
            }
            let plain = { (pattern: AccessPlan.Pattern) in !pattern.runs.contains { $0.contains("*") } }
            let wider = needed.enumerated().filter { index, pattern in
                needed.enumerated().contains { other, inner in
                    other != index && plain(pattern) && plain(inner)
                        && RulesFile.patternCovers(
                            pattern.runs.joined(separator: "*"), inner.runs.joined(separator: "*"))
                        && (pattern != inner || other < index)
                }
            }.map(\.element)
            kept.append(
                .allOf(
                    parts.filter { part in
                        if case .pattern(let pattern) = part { !wider.contains(pattern) } else { true }
                    }))
        }
        guard kept.count <= 16 else { return .anyOf(kept) }
        var index = 0
        while index < kept.count {
            var others = kept
            others.remove(at: index)
            if search(.allOf([kept[index], .not(.anyOf(others))])) == nil {
                kept = others
            } else {
                index += 1
            }
        }
        return .anyOf(kept)
    }

    /// `residual` with each `not` moved onto a pattern (De Morgan).
    private static func inward(_ residual: AccessPlan.Residual, negated: Bool) -> AccessPlan.Residual {
        switch residual {
        case .everything, .nothing, .unplanned, .attribute: return negated ? .not(residual) : residual
        case .pattern: return negated ? .not(residual) : residual
        case .all(let members):
            let inner = members.map { inward($0, negated: negated) }
            return negated ? .anyOf(inner) : .allOf(inner)
        case .any(let members):
            let inner = members.map { inward($0, negated: negated) }
            return negated ? .allOf(inner) : .anyOf(inner)
        case .complement(let member): return inward(member, negated: !negated)
        }
    }

    /// The most conjunctions a residual is split into; past it, the rest is walked whole.
    private static let termLimit = 4096

    /// `residual` (negations inward) as a union of parts, each with no union left in it where
    /// the count allows.
    private static func terms(_ residual: AccessPlan.Residual) -> [AccessPlan.Residual] {
        switch residual {
        case .nothing: return []
        case .any(let members): return members.flatMap(terms)
        case .all(let members):
            var result: [[AccessPlan.Residual]] = [[]]
            for member in members {
                let options = terms(member)
                if options.isEmpty { return [] }
                if result.count * options.count > termLimit {
                    result = result.map { $0 + [.anyOf(options)] }
                } else {
                    result = result.flatMap { prefix in options.map { prefix + [$0] } }
                }
            }
            return result.map(AccessPlan.Residual.allOf)
        default: return [residual]
        }
    }

    /// The shortest name in `residual` (with `paths`, that a path may be), by a breadth-first walk
    /// of its patterns' automata.
    private mutating func search(_ residual: AccessPlan.Residual, paths: Bool = false) -> String? {
        if let known = searched[Searched(residual: residual, paths: paths)] { return known }
        let result = walk(residual, paths: paths)
        searched[Searched(residual: residual, paths: paths)] = .some(result)
        return result
    }

    private mutating func walk(_ residual: AccessPlan.Residual, paths: Bool) -> String? {
        switch residual {
        case .everything where !paths: return ""
        case .nothing: return nil
        default: break
        }
        var used: [AccessPlan.Pattern] = []
        Self.collect(residual, into: &used)
        // A path's shape reads `/` and `.`: they are letters of its walk.
        var scalars: Set<Unicode.Scalar> = paths ? [alphabet.last!, "/", "."] : [alphabet.last!]
        for pattern in used {
            if index[pattern] == nil {
                // A pattern made of the alphabet's characters keeps the walk exact.
                index[pattern] = globs.count
                globs.append(Glob(pattern))
            }
            for run in pattern.runs { scalars.formUnion(run.unicodeScalars) }
        }
        let letters = scalars.sorted { $0.value < $1.value }
        let members = Array(Set(used.compactMap { index[$0] })).sorted()
        var slot: [AccessPlan.Pattern: Int] = [:]
        for pattern in used { slot[pattern] = members.firstIndex(of: index[pattern]!) }
        var start: [Int32] = []
        for member in members { start.append(globs[member].state([0])) }
        // With `paths`, the last entry of a joint state is the path's shape.
        if paths { start.append(PathShape.start) }
        // Every name of a conjunction begins with the longest first run of the patterns it needs
        // (the others begin it, or no name is in it): the walk starts after that run.
        let prefix = Self.neededPrefix(residual)
        for scalar in prefix.unicodeScalars {
            for (position, member) in members.enumerated() {
                start[position] = globs[member].step(start[position], scalar)
            }
            if paths {
                start[members.count] = PathShape.step(start[members.count], scalar)
                if start[members.count] == PathShape.never { return nil }
            }
        }
        var seen: Set<[Int32]> = [start]
        var states = [start]
        var parent: [(Int, Unicode.Scalar)] = [(-1, " ")]
        var head = 0
        while head < states.count {
            let current = states[head]
            if holds(residual, current, members, slot) && (!paths || current.last == PathShape.component) {
                var symbols: [Unicode.Scalar] = []
                var at = head
                while parent[at].0 >= 0 {
                    symbols.append(parent[at].1)
                    at = parent[at].0
                }
                var name = prefix
                name.unicodeScalars.append(contentsOf: symbols.reversed())
                return name
            }
            head += 1
            // No longer name can be in it.
            if settled(residual, current, members, slot) == false { continue }
            for scalar in letters {
                var following = current
                for (position, member) in members.enumerated() {
                    following[position] = globs[member].step(current[position], scalar)
                }
                if paths {
                    let shape = PathShape.step(current[members.count], scalar)
                    if shape == PathShape.never { continue }
                    following[members.count] = shape
                }
                if seen.insert(following).inserted {
                    states.append(following)
                    parent.append((head - 1, scalar))
                }
            }
        }
        return nil
    }

    /// The longest first run of the patterns `residual` needs, when it is one or a conjunction
    /// holding them: every name in it begins with that run.
    private static func neededPrefix(_ residual: AccessPlan.Residual) -> String {
        let parts: [AccessPlan.Residual]
        switch residual {
        case .pattern: parts = [residual]
        case .all(let members): parts = members
        default: return ""
        }
        var longest = ""
        for case .pattern(let pattern) in parts where pattern.runs[0].utf8.count > longest.utf8.count {
            longest = pattern.runs[0]
        }
        return longest
    }

    /// The shape of a name read so far, as a path: the states of a small automaton that accepts
    /// exactly the names a path may be.
    private enum PathShape {
        /// At the start of a component: the name is empty or ends with `/`.
        static let start: Int32 = 0
        /// The component read so far is `.`.
        static let dot: Int32 = 1
        /// The component read so far is `..`.
        static let dots: Int32 = 2
        /// The component read so far is a proper one (the accepting state).
        static let component: Int32 = 3
        /// An empty, `.` or `..` component has ended: no longer name is a path.
        static let never: Int32 = 4

        static func step(_ shape: Int32, _ scalar: Unicode.Scalar) -> Int32 {
            switch (shape, scalar) {
            case (never, _): never
            case (component, "/"): start
            case (_, "/"): never
            case (start, "."): dot
            case (dot, "."): dots
            default: component
            }
        }
    }

    /// Whether `residual` holds at the joint state `state` (each member pattern's state).
    private func holds(
        _ residual: AccessPlan.Residual, _ state: [Int32], _ members: [Int], _ slot: [AccessPlan.Pattern: Int]
    ) -> Bool {
        switch residual {
        case .everything: return true
        case .nothing, .unplanned, .attribute: return false
        case .pattern(let pattern):
            let position = slot[pattern]!
            return globs[members[position]].accepting[Int(state[position])]
        case .all(let parts): return parts.allSatisfy { holds($0, state, members, slot) }
        case .any(let parts): return parts.contains { holds($0, state, members, slot) }
        case .complement(let member): return !holds(member, state, members, slot)
        }
    }

    /// Whether `residual` holds for every name that goes on from `state` (`true`), for none
    /// (`false`), or is not settled yet (`nil`): a pattern that can no longer match, or that
    /// matches whatever follows, settles.
    private func settled(
        _ residual: AccessPlan.Residual, _ state: [Int32], _ members: [Int], _ slot: [AccessPlan.Pattern: Int]
    ) -> Bool? {
        switch residual {
        case .everything: return true
        case .nothing, .unplanned, .attribute: return false
        case .pattern(let pattern):
            let position = slot[pattern]!
            return globs[members[position]].settled[Int(state[position])]
        case .all(let parts):
            var result: Bool? = true
            for part in parts {
                switch settled(part, state, members, slot) {
                case false: return false
                case nil: result = nil
                default: break
                }
            }
            return result
        case .any(let parts):
            var result: Bool? = false
            for part in parts {
                switch settled(part, state, members, slot) {
                case true: return true
                case nil: result = nil
                default: break
                }
            }
            return result
        case .complement(let member): return settled(member, state, members, slot).map { !$0 }
        }
    }
}
