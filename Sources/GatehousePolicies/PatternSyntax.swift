import GatehouseCore

/// The syntax of the pattern language a rules file and an allow-list are written in, checked when
/// they are loaded: `*` any run, `{subject}` or `{NAME}` a placeholder. Matching is
/// `AccessPlan/Pattern`'s.
enum PatternSyntax {
    /// Checks that every brace of `pattern` is part of a placeholder `{NAME}`.
    static func checkPlaceholders(_ pattern: Substring) throws(PatternSyntaxError) {
        var rest = pattern
        while let brace = rest.utf8.firstIndex(where: {
            $0 == AccessPlan.Pattern.openBrace || $0 == AccessPlan.Pattern.closeBrace
        }) {
            guard rest.utf8[brace] == AccessPlan.Pattern.openBrace else { throw .strayClosingBrace }
            guard let close = rest.utf8[brace...].firstIndex(of: AccessPlan.Pattern.closeBrace) else {
                throw .unclosedBrace
            }
            let name = rest[rest.utf8.index(after: brace)..<close]
            guard isName(name) else { throw .badPlaceholderName(String(name)) }
            rest = rest[rest.utf8.index(after: close)...]
        }
    }

    /// Whether `name` is a placeholder or condition key name: ASCII letters, digits, `_`, `-`, `.`.
    static func isName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
    }
}
