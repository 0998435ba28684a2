import GatehousePolicies

/// The error `RulesFile.parse` throws for `text` (as the file `r.rules`), or `nil` when it parses.
func rulesParseError(_ text: String, requireEnd: Bool = false) -> RulesFileError? {
    do {
        _ = try RulesFile.parse(text, fileName: "r.rules", requireEnd: requireEnd)
        return nil
    } catch {
        return error as? RulesFileError
    }
}
