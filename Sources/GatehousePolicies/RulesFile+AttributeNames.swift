/// Where a rules text reads a request attribute: a placeholder (`{tenant}`) or a condition
/// (`if device=managed`), on a 1-based line.
package struct RulesAttributeUse: Sendable, Hashable {
    /// How the attribute is read.
    package enum Kind: Sendable, Hashable {
        /// A placeholder, `{name}`, in a rule's fields or a condition's value.
        case placeholder
        /// A condition, `name=value`, after `if`.
        case condition
    }

    /// The attribute's name.
    package var name: String
    /// How the rule reads it.
    package var kind: Kind
    /// The rule's line, from 1.
    package var line: Int
    /// The text as written: `{tennant}` or `devce=managed`.
    package var text: String
}

extension RulesFile {
    /// Every place `text` reads a request attribute, in line order: each `{name}` placeholder
    /// other than `{subject}`, and each condition after `if`. Read from the text alone (fields
    /// split on blanks, comment lines skipped), so it answers for a file that does not parse.
    package static func attributeUses(in text: String) -> [RulesAttributeUse] {
        var uses: [RulesAttributeUse] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(
                String.init)
            guard let effect = fields.first, effect == "allow" || effect == "deny" else { continue }
            let keyword = fields.firstIndex(of: "if") ?? fields.endIndex
            for (position, field) in fields.enumerated().dropFirst() where position != keyword {
                if position > keyword, let equals = field.firstIndex(of: "="), equals > field.startIndex {
                    let name = String(field[..<equals])
                    uses.append(RulesAttributeUse(name: name, kind: .condition, line: index + 1, text: field))
                }
                for name in placeholders(in: field) where name != "subject" {
                    uses.append(
                        RulesAttributeUse(name: name, kind: .placeholder, line: index + 1, text: "{\(name)}"))
                }
            }
        }
        return uses
    }

    /// The names between `{` and `}` in `field`.
    private static func placeholders(in field: String) -> [String] {
        var names: [String] = []
        var rest = field[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
