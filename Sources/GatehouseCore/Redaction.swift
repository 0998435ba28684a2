import Foundation

/// What may be shown of a decided request: the values of masked attributes replaced by
/// `(masked)`, in the request and wherever a reason quotes them.
struct Redaction: Sendable {
    static let placeholder = "(masked)"

    /// The request with each masked value replaced.
    let request: AccessRequest
    private let values: [String]

    init(mask: Set<String>, request: AccessRequest) {
        var shown = request
        var values: [String] = []
        for name in mask {
            guard let value = shown.attributes[name] else { continue }
            if !value.isEmpty { values.append(value) }
            shown.attributes[name] = Self.placeholder
        }
        self.request = shown
        // Longest first, so that a value holding another is erased whole.
        self.values = values.sorted { $0.count > $1.count }
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

    private func erased(_ text: String) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.placeholder) }
    }

    /// `text` with each of `values` that stands as a word of its own replaced by `…`: for
    /// user-facing text, which carries no attribute value at all.
    static func withoutValues(_ text: String, _ values: some Sequence<String>) -> String {
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
