import Foundation
import GatehouseCore
import GatehouseRemote

/// The `remote` gatekeeper type: `RemotePolicy` from GatehouseRemote.
///
/// ```json
/// { "type": "remote", "protocol": "opa", "url": "http://127.0.0.1:8181/v1/data/gatehouse",
///   "timeout": "250ms", "maxResponseBytes": 1048576 }
/// ```
extension BuiltInPlugins {
    struct RemoteSettings: Decodable {
        var `protocol`: String
        var url: String
        var timeout: String?
        var maxResponseBytes: Int?
    }

    static func registerRemote(in registry: inout PluginRegistry) {
        try? registry.registerPolicy(
            "remote", settings: RemoteSettings.self, describe: describeRemote, factory: makeRemote)
    }

    static func makeRemote(_ settings: RemoteSettings, _ context: PluginContext) throws -> any AccessPolicy {
        let decisionProtocol = try remoteProtocol(settings.protocol)
        guard let url = URL(string: settings.url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw SettingsError(
                key: "url",
                message:
                    "expected an http:// or https:// URL with a host, such as \"http://127.0.0.1:8181/v1/data/gatehouse\", found \"\(settings.url)\""
            )
        }
        var timeout = RemotePolicy.defaultTimeout
        if let text = settings.timeout {
            switch ConfigurationDuration.parse(text) {
            case .success(let duration): timeout = duration
            case .failure(let problem): throw SettingsError(key: "timeout", message: problem.message)
            }
        }
        if let limit = settings.maxResponseBytes, limit <= 0 {
            throw SettingsError(
                key: "maxResponseBytes", message: "expected a positive number of bytes, found \(limit)")
        }
        do {
            return try RemotePolicy(
                url: url, protocol: decisionProtocol, timeout: timeout,
                maxResponseBytes: settings.maxResponseBytes ?? RemotePolicy.defaultMaxResponseBytes)
        } catch let error as RemotePolicyError {
            throw SettingsError(key: "url", message: error.errorDescription ?? "cannot be used")
        }
    }

    /// The `protocol` setting: `"opa"` or `"authzen"`.
    static func remoteProtocol(_ text: String) throws -> RemoteDecisionProtocol {
        if let known = RemoteDecisionProtocol(rawValue: text) { return known }
        let names = RemoteDecisionProtocol.allCases.map(\.rawValue)
        let hint =
            ConfigurationPath.suggestion(for: text, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
        throw SettingsError(
            key: "protocol", message: "unknown value \"\(text)\"; expected \"opa\" or \"authzen\"\(hint)")
    }

    /// `remote: OPA data API at http://…, timeout 250ms; no answer fails the gate`.
    static func describeRemote(_ settings: RemoteSettings) -> String {
        let api: String
        switch RemoteDecisionProtocol(rawValue: settings.protocol) {
        case .opa?: api = "OPA data API"
        case .authzen?: api = "AuthZEN evaluation"
        case nil: api = settings.protocol
        }
        let timeout =
            settings.timeout ?? ConfigurationDuration.text(RemotePolicy.defaultTimeout) + " (default)"
        var text = "remote: asks the \(api) at \(settings.url), timeout \(timeout)"
        if let limit = settings.maxResponseBytes { text += ", answers up to \(limit) bytes" }
        return text + "; no answer fails the gate, a grant is never cached"
    }
}
