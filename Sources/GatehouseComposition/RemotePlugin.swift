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
        var planTimeout: String?
        var maxPlanIds: Int?
        var maxPlanBytes: Int?
        var batch: String?
        var evaluationsPath: String?
        var batchSize: Int?
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
        let planLimits = try remotePlanLimits(settings)
        let batching = try remoteBatching(settings, url: url, protocol: decisionProtocol)
        do {
            return try RemotePolicy(
                url: url, protocol: decisionProtocol, timeout: timeout ?? RemotePolicy.defaultTimeout,
                maxResponseBytes: settings.maxResponseBytes ?? RemotePolicy.defaultMaxResponseBytes,
                bearerToken: bearerToken, proxy: proxy, planLimits: planLimits, batching: batching,
                batchSize: settings.batchSize ?? RemotePolicy.defaultBatchSize)
        } catch let error as RemotePolicyError {
            throw ConfigurationError(path: "url", message: error.errorDescription ?? "cannot be used")
        }
    }

    /// `planTimeout`, `maxPlanIds` and `maxPlanBytes`, each defaulted.
    static func remotePlanLimits(_ settings: RemoteSettings) throws -> RemotePlanLimits {
        var limits = RemotePlanLimits()
        if let text = settings.planTimeout {
            limits.timeout = try ConfigurationDuration.parse(text, key: "planTimeout")
        }
        for (key, value) in [("maxPlanIds", settings.maxPlanIds), ("maxPlanBytes", settings.maxPlanBytes)] {
            if let value, value <= 0 {
                throw ConfigurationError(path: key, message: "expected a positive number, found \(value)")
            }
        }
        limits.maxIds = settings.maxPlanIds ?? limits.maxIds
        limits.maxBytes = settings.maxPlanBytes ?? limits.maxBytes
        return limits
    }

    /// The `batch` setting: `"none"` (the default), `"evaluations"` (the endpoint beside `url`, or
    /// `evaluationsPath` on its origin) or `"discover"`; `batchSize` positive.
    static func remoteBatching(
        _ settings: RemoteSettings, url: URL, protocol decisionProtocol: RemoteDecisionProtocol
    ) throws -> RemoteBatching {
        if let size = settings.batchSize, size <= 0 {
            throw ConfigurationError(
                path: "batchSize", message: "expected a positive number of names, found \(size)")
        }
        let choices = ["none", "evaluations", "discover"]
        let batch = settings.batch ?? "none"
        guard choices.contains(batch) else {
            let hint = closestName(to: batch, among: choices).map { "; did you mean \"\($0)\"?" } ?? ""
            throw ConfigurationError(
                path: "batch",
                message:
                    "unknown value \"\(batch)\"; expected \"none\" (the default), \"evaluations\" or \"discover\"\(hint)"
            )
        }
        if settings.evaluationsPath != nil, batch != "evaluations" {
            throw ConfigurationError(
                path: "evaluationsPath", message: "is read only with \"batch\": \"evaluations\"")
        }
        if batch != "none", decisionProtocol != .authzen {
            throw ConfigurationError(
                path: "batch",
                message:
                    "batches use AuthZEN's Access Evaluations API; with \"protocol\": \"opa\" leave it out")
        }
        switch batch {
        case "evaluations":
            if let path = settings.evaluationsPath {
                guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("?"), !path.contains("#"),
                    var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
                else {
                    throw ConfigurationError(
                        path: "evaluationsPath",
                        message: "expected a path on the url's origin, such as \"/access/v1/evaluations\"")
                }
                parts.query = nil
                parts.fragment = nil
                parts.path = path
                guard let endpoint = parts.url else {
                    throw ConfigurationError(path: "evaluationsPath", message: "is not a path a URL can hold")
                }
                return .evaluations(endpoint)
            }
            guard let endpoint = RemotePolicy.evaluationsURL(beside: url) else {
                throw ConfigurationError(
                    path: "evaluationsPath",
                    message:
                        "the url does not end in \"evaluation\", so there is no endpoint beside it; give the Access Evaluations path, such as \"/access/v1/evaluations\""
                )
            }
            return .evaluations(endpoint)
        case "discover":
            return .discover
        default:
            return .none
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
        switch settings.batch {
        case "evaluations"?: text += ", many names at once through Access Evaluations"
        case "discover"?: text += ", many names at once if its discovery document names Access Evaluations"
        default: break
        }
        return text + "; no answer fails the gate, a grant is never cached"
    }
}
