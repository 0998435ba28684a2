import Foundation

/// Whether a ``RemotePolicy`` asks about many names in one request: AuthZEN 1.0's Access
/// Evaluations API (`POST /access/v1/evaluations`), used when a gate must check each name (a
/// listing with no plan). Each request holds at most ``RemotePolicy/batchSize`` names; every
/// fault (a failed page, a count of answers that differs from the count asked, an answer that is
/// not a decision) fails every name of that page closed.
public enum RemoteBatching: Sendable, Hashable {
    /// One request per name (the default).
    case none
    /// The Access Evaluations endpoint at this URL, such as the one beside the evaluation endpoint
    /// (``RemotePolicy/evaluationsURL``).
    case evaluations(URL)
    /// The endpoint named by `access_evaluations_endpoint` in the service's discovery document,
    /// `/.well-known/authzen-configuration` at the origin of the policy's URL, read when a batch
    /// is first asked and kept once read. A document that names no such endpoint means one
    /// request per name; a document that cannot be read fails that batch closed.
    case discover

    /// What is wrong with batching for `decisionProtocol`, or `nil`.
    func problem(protocol decisionProtocol: RemoteDecisionProtocol, batchSize: Int) -> String? {
        guard batchSize > 0 else { return "the batch size (batchSize) must be positive" }
        guard self != .none else { return nil }
        guard decisionProtocol == .authzen else {
            return "batching asks AuthZEN's Access Evaluations API; OPA's data API has no batch of decisions"
        }
        if case .evaluations(let endpoint) = self {
            guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = endpoint.host, !host.isEmpty, !RemotePolicy.hasUserInformation(endpoint)
            else {
                return
                    "the evaluations endpoint must be an http:// or https:// URL with a host and no user information"
            }
        }
        return nil
    }
}
