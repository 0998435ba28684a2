import GatehouseCore

/// Finds a text that some `*`-patterns all match and none of others matches, exactly: a search
/// over the product of the patterns' automata (a `*`-pattern is a small automaton over characters;
/// a set of its positions is one state), on an alphabet of the patterns' own characters and one
/// character none of them holds, which stands for every other.
enum PatternWitness {
    /// What the search found.
    enum Outcome: Equatable {
        /// A shortest text (in characters) that every pattern of `all` matches and none of `none`.
        case found(String)
        /// No text is matched by all of `all` and none of `none`.
        case none
        /// The search visited more states than its limit allows: no answer.
        case tooLarge
    }

    /// A text that every pattern of `all` (at least one) matches and no pattern of `none` does.
    static func text(
        matchingAll all: [AccessPlan.Pattern], none: [AccessPlan.Pattern], stateLimit: Int = 200_000
    ) -> Outcome {
        let automata = (all + none).map(Automaton.init)
        var used = Set<Unicode.Scalar>()
        for automaton in automata { used.formUnion(automaton.scalars) }
        guard let fresh = freshScalar(avoiding: used) else { return .tooLarge }
        // The fresh character first, so that a witness takes it where any character would do.
        let alphabet = [fresh] + used.sorted { $0.value < $1.value }
        let required = all.count
        let start = automata.map { $0.closure([0]) }
        /// Dead: a required pattern can no longer match, or a forbidden one matches whatever follows.
        func isDead(_ state: [[Int]]) -> Bool {
            for (index, positions) in state.enumerated() {
                if index < required {
                    if positions.isEmpty { return true }
                } else if automata[index].acceptsEverything(from: positions) {
                    return true
                }
            }
            return false
        }
        func isAccepting(_ state: [[Int]]) -> Bool {
            for (index, positions) in state.enumerated() {
                let accepts = automata[index].accepts(positions)
                if accepts != (index < required) { return false }
            }
            return true
        }
        guard !isDead(start) else { return .none }
        var parents: [[[Int]]: (parent: [[Int]], scalar: Unicode.Scalar)] = [:]
        var seen: Set<[[Int]]> = [start]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            if isAccepting(state) {
                var scalars: [Unicode.Scalar] = []
                var current = state
                while let step = parents[current] {
                    scalars.append(step.scalar)
                    current = step.parent
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars.reversed())
                return .found(text)
            }
            for scalar in alphabet {
                let next = state.indices.map { automata[$0].step(state[$0], on: scalar) }
                guard !isDead(next), seen.insert(next).inserted else { continue }
                if seen.count > stateLimit { return .tooLarge }
                parents[next] = (state, scalar)
                queue.append(next)
            }
        }
        return .none
    }

    /// A character not in `used`, standing for every character the patterns lack: a lower-case
    /// letter when one is free (a readable counterexample), else a private-use character.
    static func freshScalar(avoiding used: Set<Unicode.Scalar>) -> Unicode.Scalar? {
        let letters = "xyzqjkwvuabcdefghilmnoprst".unicodeScalars
        return letters.first { !used.contains($0) }
            ?? (0xE000...0xF8FF).lazy.compactMap(Unicode.Scalar.init).first { !used.contains($0) }
    }

    /// A `*`-pattern as positions: position `i` is before token `i`, a token being a character or
    /// a star; the last position accepts.
    private struct Automaton {
        /// `nil` for a star.
        let tokens: [Unicode.Scalar?]
        /// From each position, whether only stars follow.
        let onlyStarsAfter: [Bool]

        init(_ pattern: AccessPlan.Pattern) {
            var tokens: [Unicode.Scalar?] = []
            for (index, run) in pattern.runs.enumerated() {
                if index > 0 { tokens.append(nil) }
                tokens += run.unicodeScalars.map { $0 }
            }
            self.tokens = tokens
            var onlyStars = [Bool](repeating: true, count: tokens.count + 1)
            for index in tokens.indices.reversed() {
                onlyStars[index] = tokens[index] == nil && onlyStars[index + 1]
            }
            onlyStarsAfter = onlyStars
        }

        var scalars: Set<Unicode.Scalar> { Set(tokens.compactMap { $0 }) }

        /// `positions` with every position a star may be skipped to, sorted.
        func closure(_ positions: [Int]) -> [Int] {
            var result = Set<Int>()
            for var position in positions {
                while result.insert(position).inserted, position < tokens.count, tokens[position] == nil {
                    position += 1
                }
            }
            return result.sorted()
        }

        func step(_ positions: [Int], on scalar: Unicode.Scalar) -> [Int] {
            var next: [Int] = []
            for position in positions where position < tokens.count {
                if let token = tokens[position] {
                    if token == scalar { next.append(position + 1) }
                } else {
                    next.append(position)
                }
            }
            return closure(next)
        }

        func accepts(_ positions: [Int]) -> Bool { positions.last == tokens.count }

        func acceptsEverything(from positions: [Int]) -> Bool {
            positions.contains { onlyStarsAfter[$0] && $0 < tokens.count }
        }
    }
}
