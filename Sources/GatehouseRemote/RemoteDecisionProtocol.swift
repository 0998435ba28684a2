/// The HTTP API a ``RemotePolicy`` speaks to its decision service.
public enum RemoteDecisionProtocol: String, Sendable, Hashable, CaseIterable {
    /// Open Policy Agent's data API.
    case opa
    /// The OpenID AuthZEN Access Evaluation API.
    case authzen
}
