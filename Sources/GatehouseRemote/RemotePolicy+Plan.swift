import Foundation
import GatehouseCore

extension RemotePolicy {
    /// The most pages one plan reads from an AuthZEN resource search; a service that keeps
    /// sending a `next_token` past it fails the plan.
    public static let maximumSearchPages = 1_000

    /// With AuthZEN, the resources its Resource Search API (``searchURL``) finds for the caller,
    /// every other name denied; otherwise each name must be checked. Any fault fails the plan.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        guard decisionProtocol == .authzen, let searchURL else { return .checkEach(name) }
        var names: [AccessPlan.Residual] = []
        var token: String?
        for _ in 0..<Self.maximumSearchPages {
            let body = try Self.reporting(to: searchURL) {
                try AuthZENExchange.body(
                    "search", subject: request.subject, action: request.action, resource: nil,
                    context: request.attributes, token: token)
            }
            let answer = try await exchange(body, with: searchURL)
            let page = try Self.reporting(to: searchURL) { try AuthZENExchange.searchPage(from: answer) }
            names += page.ids.map { .pattern(AccessPlan.Pattern(runs: [$0])) }
            guard let next = page.nextToken else { return .exact(allowing: .anyOf(names)) }
            token = next
        }
        throw RemotePolicyError(
            url: searchURL,
            kind: .unexpectedBody(
                "the search sent a next_token on each of \(Self.maximumSearchPages) pages; expected an empty one"
            ))
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
