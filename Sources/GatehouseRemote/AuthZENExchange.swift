import Foundation
import GatehouseCore

/// What a ``RemotePolicy`` sends to an AuthZEN Access Evaluation endpoint and how it reads the
/// answer (docs/policies.md). A request without a subject, or an empty one, is not sent: an empty
/// or made-up id could name someone. `reason_admin` is never read: it must not reach the user.
/// As in AuthZEN 1.0, the resource's own attributes are its `properties`, and the caller's are
/// the `context`.
enum AuthZENExchange {
    /// A search names no resource id.
    struct Entity: Encodable {
        var type: String
        var id: String?
        /// The resource's own attributes; left out when it has none.
        var properties: [String: String]?
    }

    struct Body: Encodable {
        var subject: Entity
        /// `{"name": …}`
        var action: [String: String]
        var resource: Entity
        var context: [String: String]
        /// `{"token": …}`, the page a search asks for; `nil` for the first, and in an evaluation.
        var page: [String: String]?
    }

    /// Why a request cannot be put to an AuthZEN service; the service is not asked.
    struct Unaskable: Error {
        let message: String
    }

    /// The body of an evaluation: each attribute the service took from the resource among the
    /// resource's `properties`, the caller's in `context`.
    static func requestBody(_ request: AccessRequest) throws -> Data {
        let ofResource = request.attributes.filter { request.resourceAttributeNames.contains($0.key) }
        return try body(
            "evaluation", subject: request.subject, action: request.action, resource: request.resource,
            properties: ofResource, context: request.attributes.filter { ofResource[$0.key] == nil })
    }

    /// The body of an evaluation, or of a search (no resource id) for the page `token`.
    static func body(
        _ operation: String, subject: String?, action: AccessAction, resource: String?,
        properties: [String: String] = [:], context: [String: String],
        token: String? = nil
    ) throws -> Data {
        guard let subject, !subject.isEmpty else {
            let found = subject == nil ? " has no subject" : "'s subject is empty"
            throw Unaskable(message: "an AuthZEN \(operation) needs a subject id, and the request\(found)")
        }
        return try JSONCoding.encoder.encode(
            Body(
                subject: Entity(type: "user", id: subject), action: ["name": action.rawValue],
                resource: Entity(
                    type: "resource", id: resource, properties: properties.isEmpty ? nil : properties),
                context: context,
                page: token.map { ["token": $0] }))
    }

    static func decision(from answer: AnswerJSON, service: URL) throws -> AccessDecision {
        guard let members = answer.members else {
            throw AnswerShapeError(
                "expected a JSON object with \"decision\", found \(answer.kindDescription)")
        }
        guard case .bool(let decision)? = members["decision"] else {
            let found = members["decision"].map(\.kindDescription) ?? "no \"decision\""
            throw AnswerShapeError("\"decision\" must be true or false, found \(found)")
        }
        if decision { return .allow }
        return .deny(
            reason: reason(in: members["context"]).map(Excerpt.reason)
                ?? "the AuthZEN service at \(RemotePolicy.redacted(service)) denied it")
    }

    /// An unknown shape is no reason.
    static func reason(in context: AnswerJSON?) -> String? {
        guard let context = context?.members else { return nil }
        switch context["reason"] {
        case .string(let text)? where !text.isEmpty:
            return text
        case .object(let reason)?:
            if let text = reasonField(reason["reason_user"]) { return text }
        default:
            break
        }
        return reasonField(context["reason_user"])
    }

    /// A Reason Field (`{"en": "…", "es-403": "…"}`): `en`, a key starting `en`, then the first.
    static func reasonField(_ value: AnswerJSON?) -> String? {
        guard let field = value?.members else {
            if case .string(let text)? = value, !text.isEmpty { return text }
            return nil
        }
        let texts = field.compactMapValues { value -> String? in
            if case .string(let text) = value, !text.isEmpty { return text }
            return nil
        }
        if let english = texts["en"] { return english }
        let languages = texts.keys.sorted()
        if let english = languages.first(where: { $0.hasPrefix("en") }) { return texts[english] }
        return languages.first.flatMap { texts[$0] }
    }
}
