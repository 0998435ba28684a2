import Foundation
import GatehouseCore

/// A gatekeeper that asks a decision service over HTTP: Open Policy Agent's data API or an
/// OpenID AuthZEN Access Evaluation endpoint.
///
/// Every decision is one `POST` to ``url``; a grant is never cached. The service's "no" is a
/// denial, with its reason when it gives one. Anything else makes the gate **fail** (it throws
/// ``RemotePolicyError``, and the proxy denies the call as a failure): a transport error, no
/// complete answer within ``timeout``, a status other than 2xx (redirects are not followed), a
/// body over ``maxResponseBytes`` (cut off as it arrives), or one that is not a decision.
///
/// ```swift
/// let opa = try RemotePolicy(
///     url: URL(string: "http://127.0.0.1:8181/v1/data/gatehouse")!, protocol: .opa,
///     timeout: .milliseconds(250))
/// let avatars = loader.guarded(by: opa)
/// ```
///
/// The URL never carries credentials: pass a token as `bearerToken`, sent as `Authorization:
/// Bearer …` and never shown. Messages show the URL ``redacted(_:)``. No proxy is used unless
/// `proxy` is ``RemoteProxy/environment``. The request and answer shapes are in docs/policies.md.
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
    public let proxy: RemoteProxy

    private let transport: HTTPTransport

    /// Creates a remote policy asking `url`: for OPA the data API path of the decision document
    /// (`http://127.0.0.1:8181/v1/data/gatehouse`), for AuthZEN the evaluation endpoint
    /// (`https://pdp.example/access/v1/evaluation`). `timeout` and `maxResponseBytes` are
    /// positive; `bearerToken` is printable ASCII without spaces.
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
        proxy: RemoteProxy = .direct
    ) throws {
        if let problem = Self.problem(
            url: url, timeout: timeout, maxResponseBytes: maxResponseBytes, bearerToken: bearerToken)
        {
            throw RemotePolicyError(url: url, kind: .invalidConfiguration(problem))
        }
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

    /// What is wrong with a bearer token (printable ASCII without spaces), or `nil`; the answer
    /// never shows the token.
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
        let body: Data
        switch decisionProtocol {
        case .opa:
            body = try OPAExchange.requestBody(request)
        case .authzen:
            do {
                body = try AuthZENExchange.requestBody(request)
            } catch let unaskable as AuthZENExchange.Unaskable {
                throw RemotePolicyError(url: url, kind: .unaskable(unaskable.message))
            }
        }
        let answer = try await exchange(body, with: url)
        do {
            switch decisionProtocol {
            case .opa: return try OPAExchange.decision(from: answer, service: url)
            case .authzen: return try AuthZENExchange.decision(from: answer, service: url)
            }
        } catch let shape as AnswerShapeError {
            throw RemotePolicyError(url: url, kind: .unexpectedBody(shape.message))
        }
    }

    /// Posts `body` to `endpoint` and reads the answer as JSON, or throws ``RemotePolicyError``.
    func exchange(_ body: Data, with endpoint: URL) async throws -> AnswerJSON {
        let response: HTTPTransport.Response
        do {
            response = try await transport.post(body, to: endpoint, timeout: timeout, limit: maxResponseBytes)
        } catch let failure as HTTPTransport.Failure {
            switch failure {
            case .timedOut: throw RemotePolicyError(url: endpoint, kind: .timedOut(timeout))
            case .tooLarge: throw RemotePolicyError(url: endpoint, kind: .tooLarge(limit: maxResponseBytes))
            case .transport(let text): throw RemotePolicyError(url: endpoint, kind: .transport(text))
            case .proxyInEnvironment(let variable):
                throw RemotePolicyError(
                    url: endpoint,
                    kind: .unaskable(
                        "the environment names a proxy (\(variable)), and this gate sends no decision through a proxy unless its configuration says \"proxy\": \"environment\"; unset \(variable) for this process or choose the proxy"
                    ))
            }
        }
        guard (200..<300).contains(response.status) else {
            throw RemotePolicyError(
                url: endpoint, kind: .status(response.status, body: Excerpt.of(response.body)))
        }
        do {
            return try AnswerJSON.parse(response.body)
        } catch let shape as AnswerShapeError {
            throw RemotePolicyError(url: endpoint, kind: .unexpectedBody(shape.message))
        }
    }
}
