import Foundation

/// The built-in attribute source `json`, `{"docs/plan.md": {"owner": "alice"}}`, read at each
/// decision so an edit counts at once; a missing or malformed file throws, failing the gate.
struct JSONAttributeSource: AttributeSource {
    let url: URL
    /// The path as the configuration writes it, for messages.
    let path: String

    func attributes(of resource: String) async throws -> [String: String] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw AttributeSourceError(message: "cannot read \(path): \(error.localizedDescription)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(data))
        } catch {
            throw AttributeSourceError(
                message: "\(path):\(error.line):\(error.column): invalid JSON: \(error.message)")
        }
        guard case .object(let resources) = value else {
            throw AttributeSourceError(
                message:
                    "\(path): expected an object mapping resources to attributes, found \(value.kindDescription)"
            )
        }
        guard let entry = resources[resource] else { return [:] }
        guard case .object(let members) = entry else {
            throw AttributeSourceError(
                message:
                    "\(path): \"\(resource)\" must be an object of string attributes, found \(entry.kindDescription)"
            )
        }
        var attributes: [String: String] = [:]
        for member in members.members {
            guard case .string(let text) = member.value else {
                throw AttributeSourceError(
                    message:
                        "\(path): \"\(resource)\".\(member.key) must be a string, found \(member.value.kindDescription)"
                )
            }
            attributes[member.key] = text
        }
        return attributes
    }
}
