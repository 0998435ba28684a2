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
    static func attributeUses(in line: RulesLine, of text: [UInt8]) -> [RulesAttributeUse] {
        let (open, close, equals) = (UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "="))
        let fields = line.fields
        // Most rules read no attribute: no field after the fourth, no brace.
        guard fields.count > 4 || fields.contains(where: { text[$0].contains(open) }),
            text[fields[0]].elementsEqual("allow".utf8) || text[fields[0]].elementsEqual("deny".utf8)
        else { return [] }
        var uses: [RulesAttributeUse] = []
        let keyword = fields.firstIndex { text[$0].elementsEqual("if".utf8) } ?? fields.endIndex
        for (position, range) in fields.enumerated().dropFirst() where position != keyword {
            // Bytes, not characters: a combining mark after `=` or `{` makes one `Character` with it.
            if position > keyword, let split = text[range].firstIndex(of: equals), split > range.lowerBound {
                uses.append(
                    RulesAttributeUse(
                        name: String(decoding: text[range.lowerBound..<split], as: UTF8.self),
                        line: line.number,
                        described: "the condition " + String(decoding: text[range], as: UTF8.self)))
            }
            var rest = range
            while let start = text[rest].firstIndex(of: open),
                let end = text[start..<rest.upperBound].firstIndex(of: close)
            {
                let name = String(decoding: text[(start + 1)..<end], as: UTF8.self)
                if name != "subject" {
                    uses.append(
                        RulesAttributeUse(
                            name: name, line: line.number, described: "the placeholder {\(name)}"))
                }
                rest = (end + 1)..<range.upperBound
            }
        }
        return uses
    }

    /// The problem of a rule reading an attribute that is not among `declared`, with a
    /// did-you-mean or the declared names.
    static func undeclared(_ use: RulesAttributeUse, declared: [String]) -> RulesFileError.Problem {
        let hint =
            closestName(to: use.name, among: declared).map { " (did you mean \"\($0)\"?)" }
            ?? (declared.isEmpty
                ? "; no attribute is declared"
                : "; the declared ones are \(declared.joined(separator: ", "))")
        return RulesFileError.Problem(
            line: use.line, kind: .malformed,
            message: "\(use.described) names the attribute \"\(use.name)\", which is not declared\(hint)")
    }
}
