import GatehouseCore

/// One condition of a rule, `KEY=VALUE` after `if`: the request attribute `KEY` must equal
/// `VALUE` exactly, placeholders in `VALUE` replaced by the request's values.
struct RuleCondition: Sendable {
    let key: String
    /// Literal text (a `*` included) and placeholders.
    let value: String

    init(_ field: Substring) throws(RuleSyntaxError) {
        guard let equals = field.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            throw RuleSyntaxError("the condition \"\(field)\" has no \"=\"; write KEY=VALUE")
        }
        // Split on the `=` byte, not on characters: a value that starts with a combining mark
        // makes one `Character` with the `=`, and `index(after:)` would drop the mark.
        let key = field[..<equals]
        let value = field[field.utf8.index(after: equals)...]
        guard !key.isEmpty else {
            throw RuleSyntaxError("the condition \"\(field)\" has an empty key; write KEY=VALUE")
        }
        guard PatternSyntax.isName(key) else {
            throw RuleSyntaxError(
                "the condition key \"\(key)\" may hold only letters, digits, \"_\", \"-\" and \".\"")
        }
        guard !value.isEmpty else {
            throw RuleSyntaxError("the condition \"\(field)\" has an empty value; write KEY=VALUE")
        }
        do {
            try PatternSyntax.checkPlaceholders(value)
        } catch {
            throw RuleSyntaxError("the condition \"\(field)\": \(error.message)")
        }
        self.key = String(key)
        self.value = String(value)
    }

    func holds(in request: AccessRequest) -> Bool {
        Self.holds(key, value, in: request)
    }

    /// Whether the request's attribute `key`, in NFC, equals `value`, placeholders substituted.
    static func holds(_ key: String, _ value: String, in request: AccessRequest) -> Bool {
        guard let attribute = request.attributes[key] else { return false }
        return AccessPlan.Pattern.matches(
            value, ResourceIdentity.normalized(attribute), values: request, stars: false)
    }
}

/// What is wrong with one line of a rules file, before the file and line are known.
struct RuleSyntaxError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
