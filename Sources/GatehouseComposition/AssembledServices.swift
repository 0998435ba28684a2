import Foundation
import GatehouseAudit

/// The services of one configuration, in file order, ready to use.
public struct AssembledServices: Sendable {
    /// The services in the order the file lists them.
    public let services: [ConfiguredService]
    /// The configuration file, when assembled from one.
    public let file: URL?
    /// The decision log every service writes to, if any; close it before the process exits.
    public let decisionLog: DecisionLog?
    /// What ``validate()`` checks, in file order.
    let checks: [Check]

    /// The service named `name`, or `nil`.
    public subscript(name: String) -> ConfiguredService? {
        services.first { $0.name == name }
    }

    /// The service named `name`; with `nil`, the only service of a one-service file. Throws a
    /// ``ConfigurationError`` naming the services there are.
    public func service(named name: String?) throws -> ConfiguredService {
        if let name {
            if let service = self[name] { return service }
            throw ConfigurationError(message: "no service \"\(name)\"; the configuration has \(list)")
        }
        guard services.count == 1 else {
            throw ConfigurationError(
                message:
                    "the configuration has \(services.count) services (\(list)); choose one with --service")
        }
        return services[0]
    }

    private var list: String {
        services.map { "\"\($0.name)\"" }.joined(separator: ", ")
    }

    /// Every service described for people (`gatehouse describe`): a heading per service, then its
    /// parts in call order.
    public var description: String {
        services.map { $0.description.joined(separator: "\n") }.joined(separator: "\n\n")
    }
}
