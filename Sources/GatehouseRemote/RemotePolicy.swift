import Foundation
import GatehouseCore

/// A gatekeeper that asks a decision service over HTTP: Open Policy Agent's data API or an
/// OpenID AuthZEN Access Evaluation endpoint.
///
/// Every decision is one `POST` to ``url``; a grant is never cached. The service's "no" is a
/// denial; anything else that is not a decision **fails closed** with ``RemotePolicyError``.
///
/// ```swift
/// let opa = try RemotePolicy(
///     url: URL(string: "http://127.0.0.1:8181/v1/data/gatehouse")!, protocol: .opa,
///     timeout: .milliseconds(250))
/// let avatars = loader.guarded(by: opa)
/// ```
///
/// With AuthZEN, a plan asks the Resource Search API within ``planLimits``, and a batch (a listing
/// that must check each name) may ask Access Evaluations (``batching``).
///
/// Pass a token as `bearerToken`, never in the URL. Messages show the URL ``redacted(_:)``. No
/// proxy is used unless `proxy` is ``HTTPProxySetting/environment``. Shapes, credentials and faults:
/// docs/policies.md ("The remote gatekeeper").
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
    /// Whether decisions may go through the proxy the environment names.
    public let proxy: HTTPProxySetting
    /// The bounds of one plan, all search pages together.
    public let planLimits: RemotePlanLimits
    /// How many names one decision may ask at once (AuthZEN Access Evaluations), or none.
    public let batching: RemoteBatching
    /// The most names one batched request asks; a longer batch is sent in pages of this size.
    public let batchSize: Int
    /// The batch size when none is given: 100 names a request.
    public static let defaultBatchSize = 100

    let transport: HTTPTransport
    /// What the service's discovery document said, once read (``RemoteBatching/discover``).
    let discovery = LockedState<AuthZENDiscovery?>(nil)

    /// Creates a remote policy asking `url`: OPA's data API path of the decision document, or
    /// AuthZEN's evaluation endpoint.
    ///
    /// - Throws: ``RemotePolicyError`` (`invalidConfiguration`) when a setting cannot be used, a
    ///   URL with user information included; it never shows the password or the token.
    public init(
        name: String = "remote",
        url: URL,
        protocol decisionProtocol: RemoteDecisionProtocol,
        timeout: Duration = defaultTimeout,
        maxResponseBytes: Int = defaultMaxResponseBytes,
        bearerToken: String? = nil,
        proxy: HTTPProxySetting = .direct,
        planLimits: RemotePlanLimits = RemotePlanLimits(),
        batching: RemoteBatching = .none,
        batchSize: Int = defaultBatchSize
    ) throws {
        if let problem = Self.problem(
            url: url, timeout: timeout, maxResponseBytes: maxResponseBytes, bearerToken: bearerToken)
            ?? planLimits.problem
            ?? batching.problem(protocol: decisionProtocol, batchSize: batchSize)
        {
            throw RemotePolicyError(url: url, kind: .invalidConfiguration(problem))
        }
        self.planLimits = planLimits
        self.batching = batching
        self.batchSize = batchSize
        self.name = name
        self.url = url
        self.decisionProtocol = decisionProtocol
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.proxy = proxy
        self.transport = HTTPTransport(bearerToken: bearerToken, proxy: proxy)
    }

    /// What is wrong with these settings, or `nil` when they can be used.
    static func problem(url: URL, timeout: Duration, maxResponseBytes: Int, bearerToken: String?) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "the URL must start with http:// or https://"
        }
        guard let host = url.host, !host.isEmpty else { return "the URL has no host" }
        guard !hasUserInformation(url) else {
            return
                "the URL carries user information (a name or password before \"@\"), which would travel in every log of it; remove it and pass a token as bearerToken"
        }
        guard timeout > .zero else { return "the timeout must be positive" }
        guard maxResponseBytes > 0 else { return "maxResponseBytes must be positive" }
        if let token = bearerToken, let problem = bearerTokenProblem(token) { return problem }
        return nil
    }

    /// What is wrong with a bearer token (printable ASCII without spaces), or `nil`; never shows it.
    public static func bearerTokenProblem(_ token: String) -> String? {
        guard !token.isEmpty else { return "the bearer token is empty" }
        guard token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            return
                "the bearer token holds a character that is not printable ASCII (a space, a line break or another control character); a header cannot carry it"
        }
        return nil
    }

    /// Asks the decision service; an undefined OPA decision (`{}`) denies.
    ///
    /// - Throws: ``RemotePolicyError`` when there is no decision; `CancellationError` when the
    ///   calling task is cancelled.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try Task.checkCancellation()
        let body = try Self.reporting(to: url) {
            switch decisionProtocol {
            case .opa: try OPAExchange.requestBody(request)
            case .authzen: try AuthZENExchange.requestBody(request)
            }
        }
        let answer = try await exchange(body, with: url)
        return try Self.reporting(to: url) {
            switch decisionProtocol {
            case .opa: try OPAExchange.decision(from: answer, service: url)
            case .authzen: try AuthZENExchange.decision(from: answer, service: url)
            }
        }
    }

    /// Runs `body`, turning an unaskable request or an answer of the wrong shape into a
    /// ``RemotePolicyError`` about `endpoint`.
    static func reporting<T>(to endpoint: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let unaskable as AuthZENExchange.Unaskable {
            throw RemotePolicyError(url: endpoint, kind: .unaskable(unaskable.message))
        } catch let shape as AnswerShapeError {
            throw RemotePolicyError(url: endpoint, kind: .unexpectedBody(shape.message))
        }
    }

    /// Posts `body` to `endpoint` and reads the answer as JSON; throws ``RemotePolicyError``.
    func exchange(_ body: Data, with endpoint: URL) async throws -> AnswerJSON {
        try await answer(to: body, at: endpoint, timeout: timeout, limit: maxResponseBytes).json
    }

    /// ``exchange(_:with:)`` within `timeout` and `limit` bytes, with the size of the answer.
    func answer(
        to body: Data, at endpoint: URL, timeout: Duration, limit: Int
    ) async throws -> (json: AnswerJSON, bytes: Int) {
        let response = try await transport.post(body, to: endpoint, timeout: timeout, limit: limit)
        guard (200..<300).contains(response.status) else {
            throw RemotePolicyError(
                url: endpoint, kind: .status(response.status, body: Excerpt.of(response.body)))
        }
        return (try Self.reporting(to: endpoint) { try AnswerJSON.parse(response.body) }, response.body.count)
    }
}
