import Foundation
import GatehouseCore
import GatehousePolicies

extension ConfiguredService {
    /// An issue for each placeholder and condition, in the rules files `policy` reads (also
    /// inside `allOf`, `anyOf` and `not`), that names an attribute not in `declared`, with a
    /// did-you-mean: `services.docs.gatekeepers[0]: docs.rules:3: the placeholder {tennant}
    /// names the attribute "tennant", which the service does not declare (did you mean "tenant"?)`.
    /// A file that cannot be read is left to the rules file's own check.
    static func undeclaredAttributes(
        in policy: any AccessPolicy, at place: String, declared: [String]
    ) -> [ConfigurationError.Issue] {
        var issues: [ConfigurationError.Issue] = []
        for (url, filePlace) in rulesFiles(in: policy, at: place) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for use in RulesFile.attributeUses(in: text) where !declared.contains(use.name) {
                let what =
                    use.kind == .placeholder ? "the placeholder \(use.text)" : "the condition \(use.text)"
                let hint =
                    ConfigurationPath.suggestion(for: use.name, among: declared).map {
                        " (did you mean \"\($0)\"?)"
                    }
                    ?? "; it declares \(declared.isEmpty ? "none" : declared.joined(separator: ", "))"
                issues.append(
                    ConfigurationError.Issue(
                        path: filePlace,
                        message: "\(url.lastPathComponent):\(use.line): \(what) names the attribute "
                            + "\"\(use.name)\", which the service does not declare\(hint)"))
            }
        }
        return issues
    }

    /// The rules files `policy` reads, each with the place of the policy that names it.
    private static func rulesFiles(in policy: any AccessPolicy, at place: String) -> [(URL, String)] {
        switch policy {
        case let file as FilePolicy:
            return [(file.url, place)]
        case let renamed as RenamedPolicy:
            return rulesFiles(in: renamed.policy, at: place)
        case let not as Not:
            return rulesFiles(in: not.gatekeeper, at: "\(place).policy")
        case let all as AllOf:
            return all.gatekeepers.enumerated().flatMap { rulesFiles(in: $1, at: "\(place).policies[\($0)]") }
        case let any as AnyOf:
            return any.gatekeepers.enumerated().flatMap { rulesFiles(in: $1, at: "\(place).policies[\($0)]") }
        default:
            return []
        }
    }
}
