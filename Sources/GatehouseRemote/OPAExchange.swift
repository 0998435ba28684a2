import Foundation
import GatehouseCore

/// What a ``RemotePolicy`` sends to Open Policy Agent's data API and how it reads the answer
/// (docs/policies.md). `{}`, an undefined document, denies.
enum OPAExchange {
    /// `input`: `attributes` as every gatekeeper sees them, and beside them, for each name, whose
    /// value it is: `"resource"` (the service took it from its resources) or `"caller"`.
    struct Input: Encodable {
        var subject: String?
        var action: String
        var resource: String
        var attributes: [String: String]
        var origins: [String: String]
    }

    static func requestBody(_ request: AccessRequest) throws -> Data {
        let origins = Dictionary(
            uniqueKeysWithValues: request.attributes.keys.map {
                ($0, request.resourceAttributeNames.contains($0) ? "resource" : "caller")
            })
        return try JSONCoding.encoder.encode([
            "input": Input(
                subject: request.subject, action: request.action.rawValue, resource: request.resource,
                attributes: request.attributes, origins: origins)
        ])
    }

    static func decision(from answer: AnswerJSON, service: URL) throws -> AccessDecision {
        guard let members = answer.members else {
            throw AnswerShapeError("expected a JSON object with \"result\", found \(answer.kindDescription)")
        }
        guard let result = members["result"] else {
            // OPA answers {} when the document asked for is undefined: no rule produced a value.
            return .deny(
                reason:
                    "the OPA decision at \(RemotePolicy.redacted(service)) is undefined (no rule gave a result), which denies"
            )
        }
        switch result {
        case .bool(true):
            return .allow
        case .bool(false):
            return .deny(reason: "the OPA policy at \(RemotePolicy.redacted(service)) does not allow it")
        case .object(let fields):
            guard case .bool(let allow)? = fields["allow"] else {
                let found = fields["allow"].map(\.kindDescription) ?? "no \"allow\""
                throw AnswerShapeError("\"result.allow\" must be true or false, found \(found)")
            }
            var reason: String?
            switch fields["reason"] {
            case nil, .null?: reason = nil
            case .string(let text)?: reason = text.isEmpty ? nil : Excerpt.reason(text)
            case let other?:
                throw AnswerShapeError("\"result.reason\" must be a string, found \(other.kindDescription)")
            }
            if allow { return .allow }
            return .deny(
                reason: reason ?? "the OPA policy at \(RemotePolicy.redacted(service)) does not allow it")
        default:
            throw AnswerShapeError(
                "\"result\" must be true, false or an object with \"allow\", found \(result.kindDescription)")
        }
    }
}

/// Sorted keys, so one request is always the same bytes.
enum JSONCoding {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
