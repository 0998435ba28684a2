import GatehousePolicies

extension AssembledServices {
    /// A rules file in a service's chain: its place, the name of the gatekeeper that holds it
    /// (itself, or the combinator it is nested in), and the policy reading it.
    package typealias ChainedRulesFile = (place: String, gatekeeper: String, policy: FilePolicy)

    /// The rules files of `service`'s gatekeepers (not its shadow ones), in file order.
    package func rulesFiles(of service: ConfiguredService) -> [ChainedRulesFile] {
        let base = ConfigurationPath.member(ConfigurationPath.member("services", service.name), "gatekeepers")
        let names = service.gate.gatekeepers.map(\.name)
        return checks.compactMap { check in
            guard let policy = check.policy as? FilePolicy,
                let index = names.indices.first(where: { index in
                    let place = ConfigurationPath.element(base, index)
                    return check.path == place || check.path.hasPrefix(place + ".")
                        || check.path.hasPrefix(place + "[")
                })
            else { return nil }
            return (check.path, names[index], policy)
        }
    }
}
