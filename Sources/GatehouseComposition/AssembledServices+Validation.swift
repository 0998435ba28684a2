import Foundation
import GatehouseCore

extension AssembledServices {
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
        var issues: [ConfigurationError.Issue] = []
        for service in services {
            issues += await service.validationIssues()
        }
        guard issues.isEmpty else { throw ConfigurationError(file: file, issues: issues) }
    }
}

extension ConfiguredService {
    /// The problems of this service's gatekeepers, then its shadow gatekeepers, each at its
    /// place in the configuration; with declared attributes, each placeholder and condition of
    /// their rules files that names another attribute too.
    func validationIssues() async -> [ConfigurationError.Issue] {
        let path = ConfigurationPath.member("services", name)
        let groups = [("gatekeepers", proxy.gate.gatekeepers), ("shadow", shadow)]
        var issues: [ConfigurationError.Issue] = []
        for (key, gates) in groups {
            for (index, gate) in gates.enumerated() {
                let place = ConfigurationPath.element(ConfigurationPath.member(path, key), index)
                for issue in await memberIssues(gate, at: place) {
                    issues.append(ConfigurationError.Issue(path: issue.path, message: issue.message))
                }
                if let declaredAttributes {
                    issues += Self.undeclaredAttributes(in: gate, at: place, declared: declaredAttributes)
                }
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
