import Foundation
import GatehouseCore
import GatehousePolicies

extension AssembledServices {
    /// A policy that can be checked ahead of any decision, at its place in the configuration.
    struct Check: Sendable {
        /// Where: `services.avatars.gatekeepers[2]`, `services.avatars.shadow[0].policies[1]`.
        var path: String
        var policy: any ValidatingPolicy
    }

    /// A rules file that validated, at its gatekeeper's place: its counts, and the attributes
    /// it reads when its service declares none.
    package typealias CheckedRulesFile = (
        place: String, file: String, rules: Int, groups: Int, attributes: [String]
    )

    /// Checks now, ahead of any decision, every gatekeeper and shadow gatekeeper of every
    /// service that can be checked ahead (each `ValidatingPolicy`, such as a `file` policy's
    /// rules file, also inside `allOf`, `anyOf` and `not`), as `gatehouse validate` does.
    ///
    /// Assembling a configuration does not read its rules files (a `file` policy reads its file
    /// at each decision), so a configuration can assemble while a rules file it names is missing
    /// or malformed; this finds that before the first call is denied.
    ///
    /// - Throws: ``ConfigurationError`` listing every problem, each at the gatekeeper's place in
    ///   the configuration with the file and line in its message
    ///   (`services.avatars.gatekeepers[2]: avatars.rules:3: ...`).
    public func validate() async throws {
        _ = try await validate { _, _ in }
    }

    /// Checks as ``validate()`` does, calling `progress` with the number of policies checked
    /// and the total before each, and returns the rules files checked.
    package func validate(reporting progress: (_ done: Int, _ total: Int) -> Void) async throws
        -> [CheckedRulesFile]
    {
        var issues: [ConfigurationError.Issue] = []
        var files: [CheckedRulesFile] = []
        for (index, check) in checks.enumerated() {
            progress(index, checks.count)
            if let file = check.policy as? FilePolicy {
                do {
                    let counts = try file.validationCounts()
                    files.append(
                        (
                            check.path, file.url.lastPathComponent, counts.rules, counts.groups,
                            counts.attributes
                        ))
                } catch {
                    let problems = (error as? RulesFileError)?.problemDescriptions ?? [describe(error)]
                    issues += problems.map { .init(path: check.path, message: $0) }
                }
            } else {
                for issue in await memberIssues(check.policy, at: check.path) {
                    issues.append(.init(path: issue.path, message: issue.message))
                }
            }
        }
        guard issues.isEmpty else { throw ConfigurationError(file: file, issues: issues) }
        return files
    }
}

extension RenamedPolicy: ValidatingPolicy {
    /// The issues of the renamed policy: a name is a key of the same component, so they keep
    /// their place.
    func validationIssues() async -> [ValidationIssue] {
        guard let validating = policy as? any ValidatingPolicy else { return [] }
        return await validating.validationIssues()
    }
}
