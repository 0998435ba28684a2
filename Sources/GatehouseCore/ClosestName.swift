/// The one did-you-mean of the package: the candidate closest to `word`, ignoring case, within
/// `limit` edits (by default one edit per three characters of the candidate, at least one), the
/// first of equally close ones; `nil` when none is that close.
package func closestName(
    to word: String, among candidates: some Sequence<String>, within limit: Int? = nil
) -> String? {
    let lowered = Array(word.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, Array(candidate.lowercased()))
        if distance <= (limit ?? max(1, candidate.count / 3)), distance < (best?.distance ?? .max) {
            best = (candidate, distance)
        }
    }
    return best?.name
}

/// The Levenshtein distance between `a` and `b`: the fewest insertions, deletions and
/// substitutions that turn one into the other.
private func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(
                previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
