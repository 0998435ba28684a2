import Foundation
import GatehouseCore

extension FilePolicy: ValidatingPolicy {
    /// Reads and parses the file as it is now, apart from the versions decisions use (nothing
    /// is kept, ``WhenInvalid/keepLastGood`` does not apply): for checking a file before it
    /// is relied on, as `gatehouse validate` does.
    ///
    /// - Returns: The number of rules in the file.
    /// - Throws: ``RulesFileError`` naming the file and, for a bad line, the line.
    @discardableResult
    public func validate() throws -> Int {
        let snapshot = try FileSnapshot.read(path: path, name: fileName, limit: maximumFileSize)
        return try RulesFile.parse(snapshot.bytes, fileName: fileName, requireEnd: requireEnd).ruleCount
    }

    /// The problem ``validate()`` finds, if any, as one issue whose message names the file and,
    /// for a bad line, the line: `avatars.rules:3: ...`; empty when the file can be used.
    public func validationIssues() -> [ValidationIssue] {
        do {
            try validate()
            return []
        } catch {
            return [ValidationIssue(message: describe(error))]
        }
    }
}
