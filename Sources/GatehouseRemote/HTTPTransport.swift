import Foundation
import GatehouseCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One ephemeral `URLSession` per remote policy: a deadline from the call, a body limit as it
/// arrives, no redirects. The token lives in this class so printing a policy never shows it.
/// With ``HTTPProxySetting/direct``, a proxy in the environment refuses the exchange: libcurl, under
/// `URLSession` on Linux, would follow it.
final class HTTPTransport: Sendable {
    struct Response: Sendable {
        var status: Int
        var body: Data
    }

    /// Why an exchange gave no answer; ``post(_:to:timeout:limit:)`` throws it as a ``RemotePolicyError``.
    struct Failure: Error, Sendable {
        var kind: RemotePolicyError.Kind
    }

    private let session: URLSession
    private let bearerToken: String?
    private let proxy: HTTPProxySetting

    init(bearerToken: String?, proxy: HTTPProxySetting) {
        self.bearerToken = bearerToken
        self.proxy = proxy
        let configuration = URLSessionConfiguration.ephemeral
        if proxy == .direct {
            // Honoured by Apple's URLSession (no system proxy); libcurl ignores it, hence the
            // check of the environment before each exchange.
            configuration.connectionProxyDictionary = [:]
        }
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: ExchangeDelegate(), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Throws ``RemotePolicyError`` about `url`, or `CancellationError`.
    func post(_ body: Data, to url: URL, timeout: Duration, limit: Int) async throws -> Response {
        try await send(body, to: url, timeout: timeout, limit: limit)
    }

    /// A `GET` of `url` (a discovery document), under the same rules as ``post(_:to:timeout:limit:)``.
    func get(_ url: URL, timeout: Duration, limit: Int) async throws -> Response {
        try await send(nil, to: url, timeout: timeout, limit: limit)
    }

    /// A `POST` of `body`, or a `GET` when it is `nil`.
    private func send(_ body: Data?, to url: URL, timeout: Duration, limit: Int) async throws -> Response {
        if proxy == .direct, let variable = Self.proxyVariable(in: ProcessInfo.processInfo.environment) {
            throw RemotePolicyError(
                url: url,
                kind: .unaskable(
                    "the environment names a proxy (\(variable)), and this gate sends no decision through a proxy unless its configuration says \"proxy\": \"environment\"; unset \(variable) for this process or choose the proxy"
                ))
        }
        var request = URLRequest(url: url)
        request.httpMethod = body == nil ? "GET" : "POST"
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearerToken { request.setValue("Bearer \(bearerToken)", forHTTPHeaderField: "Authorization") }
        request.cachePolicy = .reloadIgnoringLocalCacheData
        // The deadline below is the one that counts; this idle timeout only backs it up.
        request.timeoutInterval = Double(timeout.components.seconds) + 2
        let prepared = request
        do {
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await self.exchange(prepared, limit: limit, timeout: timeout) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let response = try await group.next() ?? nil else {
                    try Task.checkCancellation()
                    throw Failure(kind: .timedOut(timeout))
                }
                return response
            }
        } catch let failure as Failure {
            throw RemotePolicyError(url: url, kind: failure.kind)
        }
    }

    private func exchange(_ request: URLRequest, limit: Int, timeout: Duration) async throws -> Response {
        guard let delegate = session.delegate as? ExchangeDelegate else {
            preconditionFailure("the session's delegate is the exchange delegate")
        }
        let task = session.dataTask(with: request)
        // Registered before cancellation can reach the task, so that no event of it is missed.
        delegate.register(task, limit: limit, timeout: timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.begin(task, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The first variable of `environment` that names a proxy (its value may carry a password).
    static func proxyVariable(in environment: [String: String]) -> String? {
        HTTPProxySetting.variables.first { !(environment[$0] ?? "").isEmpty }
    }
}

/// Completes each exchange on one session once. `@unchecked`: its only state is behind one lock.
final class ExchangeDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private typealias Failure = HTTPTransport.Failure

    private enum Outcome: Sendable {
        case answer(HTTPTransport.Response)
        case failed(Failure)
        case cancelled
    }

    private struct Exchange {
        let limit: Int
        let timeout: Duration
        /// Set when the caller waits; an outcome that comes before is kept until then.
        var continuation: CheckedContinuation<HTTPTransport.Response, any Error>?
        var outcome: Outcome?
        var status = 0
        var body = Data()
        /// Set when the delegate itself stopped the task (the body was too large).
        var failure: Failure?
    }

    private let exchanges = LockedState<[Int: Exchange]>([:])

    func register(_ task: URLSessionDataTask, limit: Int, timeout: Duration) {
        exchanges.withLock { $0[task.taskIdentifier] = Exchange(limit: limit, timeout: timeout) }
    }

    /// Starts the task, or ends at once when the caller is cancelled or the task already ended.
    func begin(
        _ task: URLSessionDataTask, continuation: CheckedContinuation<HTTPTransport.Response, any Error>
    ) {
        let cancelled = Task.isCancelled
        let early = exchanges.withLock { exchanges -> Outcome? in
            guard var exchange = exchanges[task.taskIdentifier] else { return .cancelled }
            if cancelled || exchange.outcome != nil {
                exchanges[task.taskIdentifier] = nil
                return exchange.outcome ?? .cancelled
            }
            exchange.continuation = continuation
            exchanges[task.taskIdentifier] = exchange
            return nil
        }
        if let early {
            Self.resume(continuation, with: early)
            task.cancel()
        } else {
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let expected = response.expectedContentLength
        let allowed = exchanges.withLock { exchanges -> Bool in
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return false }
            exchange.status = status
            if expected > Int64(exchange.limit) {
                exchange.failure = Failure(kind: .tooLarge(limit: exchange.limit))
            }
            exchanges[dataTask.taskIdentifier] = exchange
            return exchange.failure == nil
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let withinLimit = exchanges.withLock { exchanges -> Bool in
            let id = dataTask.taskIdentifier
            guard let limit = exchanges[id]?.limit, exchanges[id]?.failure == nil else { return false }
            guard (exchanges[id]?.body.count ?? 0) + data.count <= limit else {
                exchanges[id]?.failure = Failure(kind: .tooLarge(limit: limit))
                exchanges[id]?.body = Data()
                return false
            }
            // In place, so that the append does not copy the body received so far.
            exchanges[id]?.body.append(data)
            return true
        }
        if !withinLimit { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // A decision comes from the service configured, never from where it points: the 3xx
        // answer itself is the result, and it fails the gate.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiting = exchanges.withLock {
            exchanges -> (CheckedContinuation<HTTPTransport.Response, any Error>, Outcome)? in
            guard var exchange = exchanges[task.taskIdentifier] else { return nil }
            let outcome: Outcome
            if let failure = exchange.failure {
                outcome = .failed(failure)
            } else if let error {
                outcome = Self.outcome(for: error, timeout: exchange.timeout)
            } else {
                outcome = .answer(.init(status: exchange.status, body: exchange.body))
            }
            guard let continuation = exchange.continuation else {
                exchange.outcome = outcome
                exchanges[task.taskIdentifier] = exchange
                return nil
            }
            exchanges[task.taskIdentifier] = nil
            return (continuation, outcome)
        }
        if let (continuation, outcome) = waiting { Self.resume(continuation, with: outcome) }
    }

    private static func resume(
        _ continuation: CheckedContinuation<HTTPTransport.Response, any Error>, with outcome: Outcome
    ) {
        switch outcome {
        case .answer(let response): continuation.resume(returning: response)
        case .failed(let failure): continuation.resume(throwing: failure)
        case .cancelled: continuation.resume(throwing: CancellationError())
        }
    }

    private static func outcome(for error: any Error, timeout: Duration) -> Outcome {
        guard let urlError = error as? URLError else {
            return .failed(Failure(kind: .transport(describe(error))))
        }
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .failed(Failure(kind: .timedOut(timeout)))
        default:
            return .failed(
                Failure(
                    kind: .transport("\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"))
            )
        }
    }
}
