/// Who asks to do what to which resource: the question every gatekeeper answers.
public struct AccessRequest: Sendable, Hashable, Codable {
    /// The party asking, or `nil` for the app itself or an anonymous caller.
    public var subject: String?
    /// What the caller wants to do.
    public var action: AccessAction
    /// The resource, as text: the key passed to `load`.
    public var resource: String
    /// Further facts about the call (device, tenant) and about the resource (its owner): what
    /// the gatekeepers read. ``resourceAttributeNames`` tells which are the resource's.
    public var attributes: [String: String]
    /// The names in ``attributes`` (or missing from it) that the service takes from its
    /// resources; every other attribute is the caller's. Set by the gate, never by a caller:
    /// a request made in code, decoded or given to a gate has none until the gate reads the
    /// resource's attributes (see ``ResourceAttributes``).
    public package(set) var resourceAttributeNames: ResourceAttributeNames = .none

    /// Creates a request.
    public init(
        subject: String? = nil,
        action: AccessAction = .read,
        resource: String,
        attributes: [String: String] = [:]
    ) {
        self.subject = subject
        self.action = action
        self.resource = resource
        self.attributes = attributes
    }

    /// Creates a request whose action is given as text, such as one read from a command line.
    public init(subject: String? = nil, action: String, resource: String, attributes: [String: String] = [:])
    {
        self.init(
            subject: subject, action: AccessAction(rawValue: action), resource: resource,
            attributes: attributes)
    }
}

extension AccessRequest: CustomStringConvertible {
    /// A one-line summary such as `alice read "avatars/alice.png" [device=managed]`, attribute
    /// values included: operator output. When the service takes attributes from its resources,
    /// each value says whose it is: `[device=managed (caller), owner=alice (resource)]`.
    /// ``AccessDenied`` shows only the attribute names.
    public var description: String {
        let who = subject ?? "(no subject)"
        var text = "\(who) \(action) \"\(resource)\""
        if !attributes.isEmpty {
            let pairs = attributes.sorted { $0.key < $1.key }.map {
                "\($0.key)=\($0.value)\(origin(of: $0.key))"
            }
            text += " [\(pairs.joined(separator: ", "))]"
        }
        return text
    }

    /// ` (resource)` or ` (caller)` when the service takes attributes from its resources, else
    /// nothing: every attribute is then the caller's.
    package func origin(of name: String) -> String {
        if resourceAttributeNames == .none { return "" }
        return resourceAttributeNames.contains(name) ? " (resource)" : " (caller)"
    }
}

extension AccessRequest {
    private enum CodingKeys: String, CodingKey {
        case subject, action, resource, attributes
    }

    /// Reads a request; a missing `action` is `"read"`, missing `attributes` are none, and a
    /// missing or `null` `subject` is no subject.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            subject: try container.decodeIfPresent(String.self, forKey: .subject),
            action: try container.decodeIfPresent(AccessAction.self, forKey: .action) ?? .read,
            resource: try container.decode(String.self, forKey: .resource),
            attributes: try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:])
    }
}
