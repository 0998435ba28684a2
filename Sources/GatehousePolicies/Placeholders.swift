import GatehouseCore

/// The placeholders of a rule's pattern or condition value (`{subject}`, `{owner}`), read by
/// scalar as the engine reads bytes: a brace followed by a combining mark is still a brace. One
/// reading for plans, invariants and diffs, so none of them sees a placeholder the others miss.
enum Placeholders {
    /// What a placeholder becomes in a pattern.
    enum Value {
        /// This text, literally.
        case text(String)
        /// Any run of characters, as `*`.
        case wildcard
    }

    /// The names of the placeholders in `text`, in order.
    static func names(in text: String) -> [Substring] {
        var names: [Substring] = []
        var rest = text[...]
        while let open = rest.utf8.firstIndex(of: AccessPlan.Pattern.openBrace),
            let close = rest.utf8[open...].firstIndex(of: AccessPlan.Pattern.closeBrace)
        {
            names.append(rest[rest.utf8.index(after: open)..<close])
            rest = rest[rest.utf8.index(after: close)...]
        }
        return names
    }

    /// Whether `text` holds a brace that may open a placeholder.
    static func mayHold(_ text: String) -> Bool {
        text.utf8.contains(AccessPlan.Pattern.openBrace)
    }

    /// `spelling` as a pattern, each placeholder replaced by what `value` gives for its name and
    /// each `*` a wildcard (`stars: false`: text); `nil` when `value` gives nothing for one.
    static func substituted(
        _ spelling: String, stars: Bool = true, value: (Substring) -> Value?
    ) -> AccessPlan.Pattern? {
        var runs = [""]
        var name: String?
        for scalar in spelling.unicodeScalars {
            if var open = name {
                if scalar == "}" {
                    switch value(Substring(open)) {
                    case .text(let text): runs[runs.count - 1] += text
                    case .wildcard: runs.append("")
                    case nil: return nil
                    }
                    name = nil
                } else {
                    open.unicodeScalars.append(scalar)
                    name = open
                }
            } else if scalar == "{" {
                name = ""
            } else if scalar == "*" && stars {
                runs.append("")
            } else {
                runs[runs.count - 1].unicodeScalars.append(scalar)
            }
        }
        return AccessPlan.Pattern(runs: runs)
    }
}
