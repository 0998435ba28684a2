import Foundation
import GatehouseCore

extension FilePolicy: ValidatingPolicy {
    /// Reads and parses the file as it is now, apart from the versions decisions use (nothing
    /// is kept, ``WhenInvalid/keepLastGood`` does not apply): for checking a file before it
    /// is relied on, as `gatehouse validate` does.
    ///
    /// - Returns: The number of rules in the file.
    /// - Throws: ``RulesFileError`` naming the file and listing every problem (an attribute not
    ///   among the declared ``attributes`` too), each with its line when it has one.
    @discardableResult
    public func validate() throws -> Int {
        try validationCounts().rules
    }

    /// Checks as ``validate()`` does, and counts the file's rules and the groups it defines;
    /// when the policy declares no ``attributes``, names the attributes the file reads (sorted).
    package func validationCounts() throws -> (rules: Int, groups: Int, attributes: [String]) {
        let snapshot = try FileSnapshot.read(path: path, name: fileName, limit: maximumFileSize)
        let parsed = try RulesFile.parseCounted(
            snapshot.bytes, fileName: fileName, requireEnd: requireEnd, attributes: attributes,
            namingAttributes: attributes == nil)
        return (parsed.file.ruleCount, parsed.groupCount, parsed.attributes)
    }

    /// Every problem ``validate()`` finds, one issue each, whose message names the file and,
    /// for a bad line, the line: `avatars.rules:3: ...`; past ``RulesFileError/problemLimit``,
    /// a last issue `avatars.rules: and N more`. Empty when the file can be used.
    public func validationIssues() -> [ValidationIssue] {
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
