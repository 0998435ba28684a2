import Foundation
import GatehouseCore

extension RemotePolicy {
    /// The most pages one plan reads from an AuthZEN resource search; a service that keeps
    /// sending a `next_token` past it fails the plan.
    public static let maximumSearchPages = 1_000

    /// With AuthZEN, the resources its Resource Search API (``searchURL``) finds for the caller,
    /// every other name denied; otherwise each name must be checked. Any fault fails the plan, and
    /// so does a search that goes past ``planLimits`` (one deadline and a bound on ids and bytes
    /// for all its pages together) or finds an id that no request could name (not NFC, or holding
    /// NUL or another control character).
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        guard decisionProtocol == .authzen, let searchURL else { return .checkEach(name) }
        let clock = ContinuousClock()
        let deadline = clock.now + planLimits.timeout
        var bytesLeft = planLimits.maxBytes
        var names: [AccessPlan.Residual] = []
        var token: String?
        for _ in 0..<Self.maximumSearchPages {
            let body = try Self.reporting(to: searchURL) {
                try AuthZENExchange.body(
                    "search", subject: request.subject, action: request.action, resource: nil,
                    context: request.attributes, token: token)
            }
            let timeLeft = deadline - clock.now
            guard timeLeft > .zero else {
                throw planError(searchURL, .planTimedOut(gatekeeper: name, planLimits.timeout))
            }
            let pageTimeout = min(timeout, timeLeft)
            let pageLimit = min(maxResponseBytes, bytesLeft)
            let answer: (json: AnswerJSON, bytes: Int)
            do {
                answer = try await self.answer(
                    to: body, at: searchURL, timeout: pageTimeout, limit: pageLimit)
            } catch let error as RemotePolicyError {
                switch error.kind {
                case .timedOut where pageTimeout < timeout:
                    throw planError(searchURL, .planTimedOut(gatekeeper: name, planLimits.timeout))
                case .tooLarge where pageLimit < maxResponseBytes:
                    throw planError(searchURL, bytesBound)
                default:
                    throw error
                }
            }
            bytesLeft -= answer.bytes
            let page = try Self.reporting(to: searchURL) { try AuthZENExchange.searchPage(from: answer.json) }
            guard names.count + page.ids.count <= planLimits.maxIds else {
                throw planError(
                    searchURL, .planTooLarge(gatekeeper: name, bound: "\(planLimits.maxIds) ids (maxPlanIds)")
                )
            }
            for id in page.ids {
                if let problem = ResourceIdentity.text.violation(in: id) {
                    throw RemotePolicyError(
                        url: searchURL,
                        kind: .unexpectedBody(
                            "the search found the id \"\(Excerpt.text(id, limit: 120))\", which \(problem); no request can name it, so the plan of the gatekeeper \"\(Excerpt.text(name, limit: 120))\" fails closed"
                        ))
                }
                names.append(.pattern(AccessPlan.Pattern(runs: [id])))
            }
            guard let next = page.nextToken else { return .exact(allowing: .anyOf(names)) }
            // A page that ends the byte budget exactly leaves nothing for the next one.
            guard bytesLeft > 0 else { throw planError(searchURL, bytesBound) }
            token = next
        }
        throw RemotePolicyError(
            url: searchURL,
            kind: .unexpectedBody(
                "the search sent a next_token on each of \(Self.maximumSearchPages) pages; expected an empty one"
            ))
    }

    /// The plan's bound on bytes, as a ``RemotePolicyError/Kind``.
    private var bytesBound: RemotePolicyError.Kind {
        .planTooLarge(gatekeeper: name, bound: "\(planLimits.maxBytes) bytes (maxPlanBytes)")
    }

    private func planError(_ url: URL, _ kind: RemotePolicyError.Kind) -> RemotePolicyError {
        RemotePolicyError(url: url, kind: kind)
    }

    /// The AuthZEN Resource Search endpoint beside ``url`` (`/access/v1/evaluation` →
    /// `/access/v1/search/resource`); `nil` when the path does not end in `evaluation`.
    public var searchURL: URL? {
        guard url.lastPathComponent == "evaluation" else { return nil }
        return url.deletingLastPathComponent().appendingPathComponent("search").appendingPathComponent(
            "resource")
    }
}

extension AuthZENExchange {
    struct SearchPage {
        var ids: [String]
        var nextToken: String?
    }

    /// An absent, `null` or empty `page.next_token` ends the search.
    static func searchPage(from answer: AnswerJSON) throws -> SearchPage {
        guard let members = answer.members else {
            throw AnswerShapeError("expected a JSON object with \"results\", found \(answer.kindDescription)")
        }
        guard case .array(let results)? = members["results"] else {
            let found = members["results"].map(\.kindDescription) ?? "no \"results\""
            throw AnswerShapeError("\"results\" must be an array of resources, found \(found)")
        }
        let ids = try results.map { result -> String in
            guard case .string(let id)? = result.members?["id"] else {
                throw AnswerShapeError("each of \"results\" must be an object with a string \"id\"")
            }
            return id
        }
        switch members["page"] {
        case nil, .null?:
            return SearchPage(ids: ids, nextToken: nil)
        case .object(let page)?:
            switch page["next_token"] {
            case nil, .null?: return SearchPage(ids: ids, nextToken: nil)
            case .string(let token)?: return SearchPage(ids: ids, nextToken: token.isEmpty ? nil : token)
            case let other?:
                throw AnswerShapeError("\"page.next_token\" must be a string, found \(other.kindDescription)")
            }
        case let other?:
            throw AnswerShapeError("\"page\" must be an object, found \(other.kindDescription)")
        }
    }
}
