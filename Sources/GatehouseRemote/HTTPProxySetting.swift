/// The HTTP proxy setting of a ``RemotePolicy``: whether it may send its decisions through an
/// HTTP proxy. A proxy sees every decision and can answer in the service's place, so using one is
/// a choice the configuration makes, never the environment alone (libcurl, under `URLSession` on
/// Linux, follows it).
public enum HTTPProxySetting: String, Sendable, Hashable, CaseIterable {
    /// No proxy, the default (`"none"`): while the environment names one, the gate fails.
    case direct = "none"
    /// The proxy the environment names, if any (`no_proxy` included).
    case environment

    /// The variables any HTTP client here may take a proxy from.
    static let variables = [
        "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
    ]
}
