/// Whether a ``RemotePolicy`` may send its decisions through a proxy.
///
/// The HTTP client under `URLSession` on Linux (libcurl) sends a request through the proxy that
/// the environment names (`http_proxy`, `https_proxy`, `all_proxy`), and offers no way to turn
/// that off for one session. A proxy sees every decision (subject, resource, attributes) and
/// can answer in the service's place, so using one is a choice the configuration makes, never
/// the environment alone.
public enum RemoteProxy: String, Sendable, Hashable, CaseIterable {
    /// No proxy, the default (`"none"` in a configuration): when the environment names one (`http_proxy`, `HTTP_PROXY`,
    /// `https_proxy`, `HTTPS_PROXY`, `all_proxy` or `ALL_PROXY` set and not empty), the service
    /// is not asked and the gate fails, with a reason that names the variable.
    case direct = "none"
    /// The proxy the environment names, if any, as the HTTP client reads it (`no_proxy`
    /// included).
    case environment

    /// The variables any HTTP client here may take a proxy from.
    static let variables = [
        "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
    ]
}
