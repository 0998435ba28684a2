import Foundation

/// What may be shown of a decided request: the values of masked attributes replaced by
/// `(masked)`, in the request and wherever a reason, a near miss or a plan's pattern quotes them.
/// The package's one masking routine: the gate's records, verdicts and denials, and the command's
/// reports and plans, all mask through it.
package struct Redaction: Sendable {
    /// What a masked value reads as.
    package static let placeholder = "(masked)"

    /// The request with each masked value replaced.
    package let request: AccessRequest
    private let values: [String]

    /// The redaction of `request` whose attributes named in `mask` are masked.
    package init(mask: Set<String>, request: AccessRequest) {
        var shown = request
        for name in mask where shown.attributes[name] != nil {
            shown.attributes[name] = Self.placeholder
        }
        self.request = shown
        self.values = Self.ordered(mask.compactMap { request.attributes[$0] })
    }

    /// The redaction of the attributes named in `mask` among `attributes` (the caller's context).
    package init(mask: Set<String>, attributes: [String: String]) {
        self.init(mask: mask, request: AccessRequest(action: "", resource: "", attributes: attributes))
    }

    /// Longest first, so that a value holding another is erased whole; no empty value.
    private static func ordered(_ values: [String]) -> [String] {
        Set(values.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    /// `verdict` with the masked values erased from every reason and near miss.
    func verdict(_ verdict: AccessVerdict) -> AccessVerdict {
        guard !values.isEmpty else { return verdict }
        var shown = verdict
        shown.reason = verdict.reason.map(erased)
        shown.nearMisses = verdict.nearMisses.map(erased)
        for index in shown.steps.indices {
            shown.steps[index].reason = shown.steps[index].reason.map(erased)
        }
        return shown
    }

    /// `text` with every masked value in it replaced by `(masked)`.
    package func erased(_ text: String) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.placeholder) }
    }

    /// The plan to show people: each masked value inside a pattern (a substituted `{tenant}`)
    /// reads `(masked)`, as in every record and verdict. For output only: it permits other names
    /// than the plan.
    package func plan(_ plan: AccessPlan) -> AccessPlan {
        guard !values.isEmpty else { return plan }
        return AccessPlan(residual(plan.residual), identity: plan.identity)
    }

    /// `residual` with the masked values replaced in every pattern's runs.
    private func residual(_ residual: AccessPlan.Residual) -> AccessPlan.Residual {
        switch residual {
        case .everything, .nothing, .unplanned: residual
        case .pattern(let pattern): .pattern(AccessPlan.Pattern(runs: pattern.runs.map(erased)))
        case .all(let members): .all(members.map(self.residual))
        case .any(let members): .any(members.map(self.residual))
        case .complement(let member): .complement(self.residual(member))
        case .attribute(let key, let value): .attribute(key, equals: erased(value))
        }
    }

    /// `text` with each of `values` that stands as a word of its own replaced by `…`: for
    /// user-facing text, which carries no attribute value at all.
    package static func withoutValues(_ text: String, _ values: some Sequence<String>) -> String {
        var text = text
        for value in Set(values).sorted(by: { $0.count > $1.count }) where !value.isEmpty {
            var result = ""
            var rest = text[...]
            while let found = rest.range(of: value) {
                let before =
                    found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
                let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
                let standsAlone = !isWordCharacter(before) && !isWordCharacter(after)
                result += rest[..<found.lowerBound]
                result += standsAlone ? "…" : rest[found]
                rest = rest[found.upperBound...]
            }
            text = result + rest
        }
        return text
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        character.map { $0.isLetter || $0.isNumber } ?? false
    }
}
