import Foundation
import GatehouseCore

/// A gatekeeper that asks a decision service over HTTP: Open Policy Agent's data API or an
/// OpenID AuthZEN Access Evaluation endpoint.
///
/// Every decision is one `POST` to ``url``; a grant is never cached, so two calls are two
/// requests and a revoked permission holds from the next call. The service's "no" is a denial,
/// with its reason when it gives one. Anything else makes the gate **fail** (it throws
/// ``RemotePolicyError``, and the proxy denies the call as a gate failure): a transport error,
/// no complete answer within ``timeout`` (measured from the call, connecting included), a
/// status other than 2xx (redirects are not followed), a body larger than
/// ``maxResponseBytes`` (cut off as it arrives), or a body that is not a decision of the
/// protocol's shape. Cancelling the calling task cancels the request.
///
/// ```swift
/// let opa = try RemotePolicy(
///     url: URL(string: "http://127.0.0.1:8181/v1/data/gatehouse")!, protocol: .opa,
///     timeout: .milliseconds(250))
/// let avatars = loader.guarded(by: opa)
/// ```
///
/// The exact request and answer shapes are in docs/policies.md ("The remote gatekeeper").
/// Each policy value holds one `URLSession`, shared by its copies and reused for every decision.
public struct RemotePolicy: AccessPolicy {
    /// The timeout when none is given: one second.
    public static let defaultTimeout = Duration.seconds(1)
    /// The largest answer accepted when no limit is given: 1 MiB.
    public static let defaultMaxResponseBytes = 1 << 20

    /// The gate's name in denials and audit records; `"remote"` unless given.
    public let name: String
    /// The decision service's endpoint; every decision is a `POST` to it.
    public let url: URL
    /// The API the service speaks.
    public let decisionProtocol: RemoteDecisionProtocol
    /// How long a decision may take, from the call to the end of the answer.
    public let timeout: Duration
    /// The largest answer body accepted, in bytes.
    public let maxResponseBytes: Int

    private let transport: HTTPTransport

    /// Creates a remote policy.
    ///
    /// - Parameters:
    ///   - name: The gate's name in denials and audit records.
    ///   - url: The endpoint: for OPA, the data API path of the decision document
    ///     (`http://127.0.0.1:8181/v1/data/gatehouse`); for AuthZEN, the evaluation endpoint
    ///     (`https://pdp.example/access/v1/evaluation`). `http` or `https`.
    ///   - decisionProtocol: The API the service speaks.
    ///   - timeout: How long a decision may take, connecting included; positive.
    ///   - maxResponseBytes: The largest answer accepted; positive.
    /// - Throws: ``RemotePolicyError`` with kind `invalidConfiguration` when a setting cannot
    ///   be used.
    public init(
        name: String = "remote",
        url: URL,
        protocol decisionProtocol: RemoteDecisionProtocol,
        timeout: Duration = defaultTimeout,
        maxResponseBytes: Int = defaultMaxResponseBytes
    ) throws {
        if let problem = Self.problem(url: url, timeout: timeout, maxResponseBytes: maxResponseBytes) {
            throw RemotePolicyError(url: url, kind: .invalidConfiguration(problem))
        }
        self.name = name
        self.url = url
        self.decisionProtocol = decisionProtocol
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.transport = HTTPTransport()
    }

    /// What is wrong with these settings, or `nil` when they can be used.
    static func problem(url: URL, timeout: Duration, maxResponseBytes: Int) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "the URL must start with http:// or https://"
        }
        guard let host = url.host, !host.isEmpty else { return "the URL has no host" }
        guard timeout > .zero else { return "the timeout must be positive" }
        guard maxResponseBytes > 0 else { return "maxResponseBytes must be positive" }
        return nil
    }

    /// Asks the decision service.
    ///
    /// - Returns: `.allow` or `.deny(reason:)` as the service decided; an undefined OPA
    ///   decision (`{}`) denies.
    /// - Throws: ``RemotePolicyError`` when there is no decision; `CancellationError` when the
    ///   calling task is cancelled.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try Task.checkCancellation()
        let body: Data
        switch decisionProtocol {
        case .opa:
            body = try OPAExchange.requestBody(request)
        case .authzen:
            guard let made = try AuthZENExchange.requestBody(request) else {
                throw RemotePolicyError(
                    url: url,
                    kind: .unaskable(
                        "an AuthZEN evaluation needs a subject id, and the request has no subject"))
            }
            body = made
        }
        let response: HTTPTransport.Response
        do {
            response = try await transport.post(body, to: url, timeout: timeout, limit: maxResponseBytes)
        } catch let failure as HTTPTransport.Failure {
            switch failure {
            case .timedOut: throw RemotePolicyError(url: url, kind: .timedOut(timeout))
            case .tooLarge: throw RemotePolicyError(url: url, kind: .tooLarge(limit: maxResponseBytes))
            case .transport(let text): throw RemotePolicyError(url: url, kind: .transport(text))
            }
        }
        guard (200..<300).contains(response.status) else {
            throw RemotePolicyError(url: url, kind: .status(response.status, body: Excerpt.of(response.body)))
        }
        do {
            let answer = try AnswerJSON.parse(response.body)
            switch decisionProtocol {
            case .opa: return try OPAExchange.decision(from: answer, service: url)
            case .authzen: return try AuthZENExchange.decision(from: answer, service: url)
            }
        } catch let shape as AnswerShapeError {
            throw RemotePolicyError(url: url, kind: .unexpectedBody(shape.message))
        }
    }
}
