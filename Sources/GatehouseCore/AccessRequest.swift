/// Who asks to do what to which resource: the question every gatekeeper answers.
public struct AccessRequest: Sendable, Hashable, Codable {
    /// The party asking, or `nil` for the app itself or an anonymous caller.
    public var subject: String? {
        get { storedSubject }
        set {
            self = AccessRequest(
                subject: newValue, action: action, resource: resource, attributes: attributes)
        }
    }
    /// Stored as a constant: with a `var` here, building a request copies it once more.
    private let storedSubject: String?
    /// What the caller wants to do; ``AccessProxy`` uses `"read"` for `load` by default.
    public var action: String
    /// The resource, as text: the key passed to `load`.
    public var resource: String
    /// Further facts about the call (device, tenant, purpose), for policies that use them.
    public var attributes: [String: String]

    /// Creates a request.
    public init(
        subject: String? = nil,
        action: String = "read",
        resource: String,
        attributes: [String: String] = [:]
    ) {
        self.storedSubject = subject
        self.action = action
        self.resource = resource
        self.attributes = attributes
    }
}

extension AccessRequest: CustomStringConvertible {
    /// A one-line summary such as `alice read "avatars/alice.png"`.
    public var description: String {
        let who = subject ?? "(no subject)"
        var text = "\(who) \(action) \"\(resource)\""
        if !attributes.isEmpty {
            let pairs = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            text += " [\(pairs.joined(separator: ", "))]"
        }
        return text
    }
}

extension AccessRequest {
    private enum CodingKeys: String, CodingKey {
        case subject, action, resource, attributes
    }

    /// Reads a request; `action` defaults to `"read"` and `attributes` to none when left out,
    /// and a missing or `null` `subject` is no subject.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            subject: try container.decodeIfPresent(String.self, forKey: .subject),
            action: try container.decodeIfPresent(String.self, forKey: .action) ?? "read",
            resource: try container.decode(String.self, forKey: .resource),
            attributes: try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:])
    }

    /// Writes the four fields; a request without a subject leaves `subject` out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encode(action, forKey: .action)
        try container.encode(resource, forKey: .resource)
        try container.encode(attributes, forKey: .attributes)
    }
}
