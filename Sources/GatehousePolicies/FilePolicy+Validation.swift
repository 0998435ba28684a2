import Foundation
import GatehouseCore

extension FilePolicy {
    /// Reads and parses the file as it is now, keeping nothing, and returns its number of rules;
    /// throws a ``RulesFileError`` listing every problem of the file.
    @discardableResult
    public func validate() throws -> Int {
        try validationCounts().rules
    }

    /// ``validate()``, with the number of groups and, when none are declared, the attributes read.
    package func validationCounts() throws -> (rules: Int, groups: Int, attributes: [String]) {
        let checked = try validationReport()
        return (checked.rules, checked.groups, checked.attributes)
    }

    /// ``validationCounts()``, with a warning for each rule that never changes a decision:
    /// `docs.rules:7: this rule never changes a decision: docs.rules:3 covers it`.
    package func validationReport() throws -> (
        rules: Int, groups: Int, attributes: [String], neverDeciding: [RulesFile.NeverDeciding]
    ) {
        let snapshot = try readFile()
        let parsed = try RulesFile.parseCounted(
            snapshot.bytes, fileName: fileName, requireEnd: requireEnd, attributes: attributes,
            namingAttributes: attributes == nil)
        _ = try checked(parsed.file)
        return (parsed.file.ruleCount, parsed.groupCount, parsed.attributes, parsed.file.neverDeciding)
    }

    /// Every problem ``validate()`` finds, one issue each (`avatars.rules:3: ...`); empty when
    /// the file can be used.
    public func validationIssues() async -> [ValidationIssue] {
        do {
            try validate()
            return []
        } catch let error as RulesFileError {
            return error.problemDescriptions.map { ValidationIssue(message: $0) }
        } catch {
            return [ValidationIssue(message: describe(error))]
        }
    }
}
