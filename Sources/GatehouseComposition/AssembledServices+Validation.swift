import Foundation
import GatehouseCore
import GatehousePolicies

extension AssembledServices {
    /// A policy that can be checked ahead of any decision, at its place in the configuration.
    typealias Check = (path: String, policy: any AccessPolicy)

    /// A rules file that validated, at its gatekeeper's place: its counts, and the attributes
    /// it reads when its service declares none.
    package typealias CheckedRulesFile = (
        place: String, file: String, rules: Int, groups: Int, attributes: [String],
        neverDeciding: [RulesFile.NeverDeciding]
    )

    /// Checks every gatekeeper that can be checked ahead of a decision (a `file` policy's rules
    /// file, which assembling does not read), as `gatehouse validate` does; throws a
    /// ``ConfigurationError`` listing every problem at its gatekeeper's place.
    public func validate() async throws {
        _ = try await validate { _, _ in }
    }

    /// ``validate()``, reporting `progress` before each policy; returns the rules files checked.
    package func validate(reporting progress: (_ done: Int, _ total: Int) -> Void) async throws
        -> [CheckedRulesFile]
    {
        let checked = await Self.run(checks, reporting: progress)
        guard checked.issues.isEmpty else { throw ConfigurationError(file: file, issues: checked.issues) }
        return checked.files
    }

    /// Runs `checks` in order, reporting `progress` before each: every problem at its policy's
    /// place, and the rules files that validated.
    static func run(_ checks: [Check], reporting progress: (_ done: Int, _ total: Int) -> Void) async
        -> (issues: [ConfigurationError.Issue], files: [CheckedRulesFile])
    {
        var issues: [ConfigurationError.Issue] = []
        var files: [CheckedRulesFile] = []
        for (index, check) in checks.enumerated() {
            progress(index, checks.count)
            if let file = check.policy as? FilePolicy {
                do {
                    let counts = try file.validationReport()
                    let name = file.url.lastPathComponent
                    files.append(
                        (
                            check.path, name, counts.rules, counts.groups, counts.attributes,
                            counts.neverDeciding
                        ))
                } catch {
                    let problems = (error as? RulesFileError)?.problemDescriptions ?? [describe(error)]
                    issues += problems.map { .init(path: check.path, message: $0) }
                }
            } else {
                issues += await check.policy.validationIssues().map {
                    .init(
                        path: ValidationIssue(path: $0.path, message: "").within(check.path).path,
                        message: $0.message)
                }
            }
        }
        return (issues, files)
    }
}
