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
    /// and the total before each, and returns the numbers of rules and groups in the rules files.
    package func validate(reporting progress: (_ done: Int, _ total: Int) -> Void) async throws
        -> (rules: Int, groups: Int)
    {
        var issues: [ConfigurationError.Issue] = []
        var (rules, groups) = (0, 0)
        for (index, check) in checks.enumerated() {
            progress(index, checks.count)
            if let file = check.policy as? FilePolicy {
                do {
                    let counts = try file.validationCounts()
                    (rules, groups) = (rules + counts.rules, groups + counts.groups)
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
        for service in services { issues += service.undeclaredAttributeIssues() }
        guard issues.isEmpty else { throw ConfigurationError(file: file, issues: issues) }
        return (rules, groups)
    }
}

extension ConfiguredService {
    /// With declared attributes, each placeholder and condition of the rules files of this
    /// service's gatekeepers and shadow gatekeepers that names another attribute, at its place.
    func undeclaredAttributeIssues() -> [ConfigurationError.Issue] {
        guard let declaredAttributes else { return [] }
        let path = ConfigurationPath.member("services", name)
        var issues: [ConfigurationError.Issue] = []
        for (key, gates) in [("gatekeepers", proxy.gate.gatekeepers), ("shadow", shadow)] {
            for (index, gate) in gates.enumerated() {
                let place = ConfigurationPath.element(ConfigurationPath.member(path, key), index)
                issues += Self.undeclaredAttributes(in: gate, at: place, declared: declaredAttributes)
            }
        }
        return issues
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
