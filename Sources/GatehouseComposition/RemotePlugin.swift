import Foundation
import GatehouseCore
import GatehouseRemote

/// The `remote` gatekeeper type, `RemotePolicy` (settings in docs/configuration.md). A URL never
/// carries credentials (a token comes from `bearerTokenEnvironment`), and what is said about it
/// never shows its query.
extension BuiltInPlugins {
    struct RemoteSettings: Decodable {
        var `protocol`: String
        var url: String
        var timeout: String?
        var maxResponseBytes: Int?
        var bearerTokenEnvironment: String?
        var proxy: String?
    }

    static func makeRemote(_ settings: RemoteSettings, _ context: PluginContext) throws -> any AccessPolicy {
        let decisionProtocol = try remoteProtocol(settings.protocol)
        guard let url = URL(string: settings.url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw ConfigurationError(
                path: "url",
                message:
                    "expected an http:// or https:// URL with a host, such as \"http://127.0.0.1:8181/v1/data/gatehouse\", found \"\(RemotePolicy.redacted(settings.url))\""
            )
        }
        guard !RemotePolicy.redacted(settings.url).contains("…@"), url.user == nil, url.password == nil else {
            throw ConfigurationError(
                path: "url",
                message:
                    "the URL carries user information (a name or password before \"@\"), which would show in denial reasons and logs; remove it and name an environment variable that holds a token with \"bearerTokenEnvironment\""
            )
        }
        var bearerToken: String?
        if let variable = settings.bearerTokenEnvironment {
            guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else {
                throw ConfigurationError(
                    path: "bearerTokenEnvironment",
                    message:
                        "the environment variable \"\(variable)\" is not set or empty; set it to the token the decision service expects"
                )
            }
            if let problem = RemotePolicy.bearerTokenProblem(value) {
                throw ConfigurationError(
                    path: "bearerTokenEnvironment", message: "\(problem) (from \"\(variable)\")")
            }
            bearerToken = value
        }
        let proxy = try remoteProxy(settings.proxy)
        let timeout = try settings.timeout.map { try ConfigurationDuration.parse($0, key: "timeout") }
        if let limit = settings.maxResponseBytes, limit <= 0 {
            throw ConfigurationError(
                path: "maxResponseBytes", message: "expected a positive number of bytes, found \(limit)")
        }
        do {
            return try RemotePolicy(
                url: url, protocol: decisionProtocol, timeout: timeout ?? RemotePolicy.defaultTimeout,
                maxResponseBytes: settings.maxResponseBytes ?? RemotePolicy.defaultMaxResponseBytes,
                bearerToken: bearerToken, proxy: proxy)
        } catch let error as RemotePolicyError {
            throw ConfigurationError(path: "url", message: error.errorDescription ?? "cannot be used")
        }
    }

    /// The `protocol` setting: `"opa"` or `"authzen"`.
    static func remoteProtocol(_ text: String) throws -> RemoteDecisionProtocol {
        if let known = RemoteDecisionProtocol(rawValue: text) { return known }
        let names = RemoteDecisionProtocol.allCases.map(\.rawValue)
        let hint =
            closestName(to: text, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
        throw ConfigurationError(
            path: "protocol", message: "unknown value \"\(text)\"; expected \"opa\" or \"authzen\"\(hint)")
    }

    /// The `proxy` setting: `"none"` (the default) or `"environment"`.
    static func remoteProxy(_ text: String?) throws -> HTTPProxySetting {
        guard let text else { return .direct }
        if let known = HTTPProxySetting(rawValue: text) { return known }
        throw ConfigurationError(
            path: "proxy",
            message: "unknown value \"\(text)\"; expected \"none\" (the default) or \"environment\"")
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
        var text = "remote: asks the \(api) at \(RemotePolicy.redacted(settings.url)), timeout \(timeout)"
        if let limit = settings.maxResponseBytes { text += ", answers up to \(limit) bytes" }
        if let variable = settings.bearerTokenEnvironment { text += ", a bearer token from $\(variable)" }
        if settings.proxy == HTTPProxySetting.environment.rawValue {
            text += ", through the environment's proxy"
        }
        return text + "; no answer fails the gate, a grant is never cached"
    }
}
