import Foundation
import GatehouseCore

/// AuthZEN 1.0's Access Evaluations API (`POST /access/v1/evaluations`): many evaluations in one
/// request, answered in order. The first request's subject, action and context are the defaults;
/// each evaluation holds its resource, and a subject, action or context only where it differs.
/// `execute_all` asks for every answer, so a short list is a fault, never a short-circuit.
extension AuthZENExchange {
    /// One evaluation of a batch: the resource, and what differs from the defaults.
    struct Evaluation: Encodable {
        var subject: Entity?
        var action: [String: String]?
        var resource: Entity
        var context: [String: String]?
    }

    struct Evaluations: Encodable {
        var subject: Entity
        var action: [String: String]
        var context: [String: String]
        var evaluations: [Evaluation]
        var options: [String: String]
    }

    /// The body asking about every one of `requests` (none without a subject), in order.
    static func evaluationsBody(_ requests: [AccessRequest]) throws -> Data {
        guard let first = requests.first else {
            throw Unaskable(message: "a batch needs at least one request")
        }
        let parts = try requests.map(parts)
        let defaults = parts[0]
        return try JSONCoding.encoder.encode(
            Evaluations(
                subject: defaults.subject, action: ["name": first.action.rawValue], context: defaults.context,
                evaluations: zip(requests, parts).map { request, part in
                    Evaluation(
                        subject: part.subject.id == defaults.subject.id ? nil : part.subject,
                        action: request.action == first.action ? nil : ["name": request.action.rawValue],
                        resource: part.resource,
                        context: part.context == defaults.context ? nil : part.context)
                },
                options: ["evaluations_semantic": "execute_all"]))
    }

    /// A request's subject, resource (its own attributes its properties) and context.
    private static func parts(_ request: AccessRequest) throws -> (
        subject: Entity, resource: Entity, context: [String: String]
    ) {
        guard let subject = request.subject, !subject.isEmpty else {
            let found = request.subject == nil ? " has no subject" : "'s subject is empty"
            throw Unaskable(message: "an AuthZEN evaluation needs a subject id, and the request\(found)")
        }
        let ofResource = request.attributes.filter { request.resourceAttributeNames.contains($0.key) }
        return (
            Entity(type: "user", id: subject),
            Entity(
                type: "resource", id: request.resource, properties: ofResource.isEmpty ? nil : ofResource),
            request.attributes.filter { ofResource[$0.key] == nil }
        )
    }

    /// The decisions of an Access Evaluations answer, one per evaluation asked, in order. A count
    /// other than `asked` (an answer missing, or one too many), or any answer that is not a
    /// decision, fails them all.
    static func decisions(from answer: AnswerJSON, asked: Int, service: URL) throws -> [AccessDecision] {
        guard let members = answer.members else {
            throw AnswerShapeError(
                "expected a JSON object with \"evaluations\", found \(answer.kindDescription)")
        }
        guard case .array(let answers)? = members["evaluations"] else {
            let found = members["evaluations"].map(\.kindDescription) ?? "no \"evaluations\""
            throw AnswerShapeError("\"evaluations\" must be an array of decisions, found \(found)")
        }
        guard answers.count == asked else {
            throw AnswerShapeError(
                "\"evaluations\" holds \(answers.count) decisions for \(asked) evaluations asked; answers are matched by position, so each must have exactly one"
            )
        }
        return try answers.enumerated().map { index, answer in
            do {
                return try decision(from: answer, service: service)
            } catch let shape as AnswerShapeError {
                throw AnswerShapeError("evaluation \(index): \(shape.message)")
            }
        }
    }
}
