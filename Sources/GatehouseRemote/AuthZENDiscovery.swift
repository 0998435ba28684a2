import Foundation
import GatehouseCore

/// What a ``RemotePolicy`` reads from an AuthZEN service's discovery document
/// (`/.well-known/authzen-configuration` at the origin of its URL): the Access Evaluations
/// endpoint, if the service names one. An endpoint on another origin than the policy's URL is
/// refused: decisions go only where the configuration sends them.
struct AuthZENDiscovery: Sendable, Hashable {
    /// `access_evaluations_endpoint`; `nil` when the service names none.
    var evaluations: URL?

    /// The document's URL: `/.well-known/authzen-configuration` at the origin of `url`.
    static func documentURL(for url: URL) -> URL? {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        parts.path = "/.well-known/authzen-configuration"
        parts.query = nil
        parts.fragment = nil
        return parts.url
    }

    /// Reads the document; an absent or `null` endpoint is none.
    static func parse(_ answer: AnswerJSON, origin url: URL) throws -> AuthZENDiscovery {
        guard let members = answer.members else {
            throw AnswerShapeError(
                "expected a JSON object (AuthZEN metadata), found \(answer.kindDescription)")
        }
        switch members["access_evaluations_endpoint"] {
        case nil, .null?:
            return AuthZENDiscovery(evaluations: nil)
        case .string(let text)?:
            guard let endpoint = URL(string: text), sameOrigin(endpoint, url) else {
                throw AnswerShapeError(
                    "\"access_evaluations_endpoint\" (\(Excerpt.text(RemotePolicy.redacted(text), limit: 200))) must be a URL on the policy's own origin (\(origin(of: url)))"
                )
            }
            return AuthZENDiscovery(evaluations: endpoint)
        case let other?:
            throw AnswerShapeError(
                "\"access_evaluations_endpoint\" must be a string, found \(other.kindDescription)")
        }
    }

    /// Same scheme, host and port, with no user information.
    static func sameOrigin(_ one: URL, _ other: URL) -> Bool {
        !RemotePolicy.hasUserInformation(one) && origin(of: one) == origin(of: other)
    }

    /// `http://host:port`, the port made explicit.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
