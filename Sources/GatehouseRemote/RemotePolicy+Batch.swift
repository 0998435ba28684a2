import Foundation
import GatehouseCore

extension RemotePolicy {
    /// The AuthZEN Access Evaluations endpoint beside ``url`` (`/access/v1/evaluation` →
    /// `/access/v1/evaluations`); `nil` when the path does not end in `evaluation`.
    public var evaluationsURL: URL? { Self.evaluationsURL(beside: url) }

    /// The Access Evaluations endpoint beside an evaluation endpoint `url`, as ``evaluationsURL``.
    public static func evaluationsURL(beside url: URL) -> URL? {
        guard url.lastPathComponent == "evaluation" else { return nil }
        return url.deletingLastPathComponent().appendingPathComponent("evaluations")
    }

    /// With ``batching``, the requests asked in pages of at most ``batchSize`` through AuthZEN's
    /// Access Evaluations API, each page one exchange; otherwise (or for a single request, or a
    /// service whose discovery document names no such endpoint) one request per name. A request
    /// that cannot be asked (no subject) fails alone; every fault of a page (no answer, a status
    /// other than 2xx, a count of decisions other than the count asked, an answer that is not a
    /// decision) fails every request of that page; a discovery document that cannot be read fails
    /// them all.
    public func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
        guard requests.count > 1, batching != .none else { return await oneByOne(requests) }
        let endpoint: URL?
        do {
            endpoint = try await evaluationsEndpoint()
        } catch {
            return requests.map { _ in .failure(error) }
        }
        guard let endpoint else { return await oneByOne(requests) }
        var answers: [Result<AccessExplanation, any Error>?] = requests.map { _ in nil }
        var askable: [Int] = []
        for (index, request) in requests.enumerated() {
            do {
                _ = try Self.reporting(to: endpoint) { try AuthZENExchange.requestBody(request) }
                askable.append(index)
            } catch {
                answers[index] = .failure(error)
            }
        }
        for start in stride(from: 0, to: askable.count, by: batchSize) {
            let page = Array(askable[start..<min(start + batchSize, askable.count)])
            do {
                try Task.checkCancellation()
                let body = try Self.reporting(to: endpoint) {
                    try AuthZENExchange.evaluationsBody(page.map { requests[$0] })
                }
                let answer = try await exchange(body, with: endpoint)
                let decisions = try Self.reporting(to: endpoint) {
                    try AuthZENExchange.decisions(from: answer, asked: page.count, service: endpoint)
                }
                for (index, decision) in zip(page, decisions) {
                    answers[index] = .success(AccessExplanation(decision))
                }
            } catch {
                for index in page { answers[index] = .failure(error) }
            }
        }
        return answers.map { $0 ?? .failure(CancellationError()) }
    }

    /// ``explain(_:)`` for each request, in order.
    private func oneByOne(_ requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
        var answers: [Result<AccessExplanation, any Error>] = []
        for request in requests {
            do {
                answers.append(.success(try await explain(request)))
            } catch {
                answers.append(.failure(error))
            }
        }
        return answers
    }

    /// Where batches go: the configured endpoint, or the one the discovery document names (read
    /// once, kept when read; a failed read is not kept, so the next batch reads again).
    func evaluationsEndpoint() async throws -> URL? {
        switch batching {
        case .none:
            return nil
        case .evaluations(let endpoint):
            return endpoint
        case .discover:
            if let known = discovery.withLock({ $0 }) { return known.evaluations }
            guard let document = AuthZENDiscovery.documentURL(for: url) else {
                throw RemotePolicyError(
                    url: url, kind: .unaskable("no discovery document URL can be made from it"))
            }
            let response = try await transport.get(document, timeout: timeout, limit: maxResponseBytes)
            guard (200..<300).contains(response.status) else {
                throw RemotePolicyError(
                    url: document, kind: .status(response.status, body: Excerpt.of(response.body)))
            }
            let found = try Self.reporting(to: document) {
                try AuthZENDiscovery.parse(AnswerJSON.parse(response.body), origin: url)
            }
            discovery.withLock { $0 = found }
            return found.evaluations
        }
    }
}
