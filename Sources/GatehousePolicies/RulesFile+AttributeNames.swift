import GatehouseCore

/// Where a rules text reads a request attribute: a placeholder (`{tenant}`) or a condition
/// (`if device=managed`), on a 1-based line.
struct RulesAttributeUse: Sendable {
    var name: String
    var line: Int
    /// As a message names it: `the placeholder {tennant}` or `the condition devce=managed`.
    var described: String
}

extension RulesFile {
    /// Where the rule on `line` reads request attributes: each placeholder but `{subject}`, and each
    /// condition. Read from the fields alone, so a line that does not parse is read too.
    static func attributeUses(in line: RulesLine) -> [RulesAttributeUse] {
        let fields = line.fields
        // Most rules read no attribute: no field after the fourth, no brace.
        guard fields.count > 4 || fields.contains(where: { $0.utf8.contains(AccessPlan.Pattern.openBrace) }),
            fields[0] == "allow" || fields[0] == "deny"
        else { return [] }
        var uses: [RulesAttributeUse] = []
        let keyword = fields.firstIndex(of: "if") ?? fields.endIndex
        for (position, field) in fields.enumerated().dropFirst() where position != keyword {
            // Bytes, not characters: a combining mark after `=` or `{` makes one `Character` with it.
            if position > keyword, let split = field.utf8.firstIndex(of: UInt8(ascii: "=")),
                split > field.startIndex
            {
                uses.append(
                    RulesAttributeUse(
                        name: String(field[..<split]), line: line.number, described: "the condition " + field)
                )
            }
            var rest = field[...]
            while let open = rest.utf8.firstIndex(of: AccessPlan.Pattern.openBrace),
                let close = rest.utf8[open...].firstIndex(of: AccessPlan.Pattern.closeBrace)
            {
                let name = String(rest[rest.utf8.index(after: open)..<close])
                if name != "subject" {
                    uses.append(
                        RulesAttributeUse(
                            name: name, line: line.number, described: "the placeholder {\(name)}"))
                }
                rest = rest[rest.utf8.index(after: close)...]
            }
        }
        return uses
    }

    /// The problem of a rule reading an attribute that is not among `declared`, with a
    /// did-you-mean or the declared names.
    static func undeclared(_ use: RulesAttributeUse, declared: [String]) -> RulesFileError.Issue {
        let hint =
            closestName(to: use.name, among: declared).map { " (did you mean \"\($0)\"?)" }
            ?? (declared.isEmpty
                ? "; no attribute is declared"
                : "; the declared ones are \(declared.joined(separator: ", "))")
        return RulesFileError.Issue(
            line: use.line, kind: .malformed,
            message: "\(use.described) names the attribute \"\(use.name)\", which is not declared\(hint)")
    }
}
