/// The HTTP API a ``RemotePolicy`` speaks to its decision service.
public enum RemoteDecisionProtocol: String, Sendable, Hashable, CaseIterable {
    /// Open Policy Agent's data API: `POST /v1/data/<path>` with `{"input": …}`; the answer's
    /// `result` is a boolean or an object with `allow` (and an optional `reason`).
    case opa
    /// The OpenID AuthZEN Access Evaluation API: `POST /access/v1/evaluation` with `subject`,
    /// `action`, `resource` and `context`; the answer's `decision` is a boolean.
    case authzen
}
