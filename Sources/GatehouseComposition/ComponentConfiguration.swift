/// One component of a service as written in the file: a `type` name looked up in the
/// ``PluginRegistry`` and the component's other keys, its settings.
///
/// A plugin whose settings nest other policies (like `allOf`) declares them as
/// `ComponentConfiguration` values and builds them with ``PluginContext/policy(_:)``.
public struct ComponentConfiguration: Sendable, Hashable, Codable {
    /// The registered type name, such as `"allowList"`.
    public var type: String
    /// The other keys of the component, in file order.
    public var settings: JSONObject
    /// Where the component sat relative to the settings being decoded (for error paths).
    var relativePath: [AnyCodingKey] = []

    /// Creates a component of `type` with `settings` (without the `type` key).
    public init(type: String, settings: JSONObject = JSONObject()) {
        self.type = type
        self.settings = settings
    }

    /// Decodes `{"type": "...", ...settings}`.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        guard case .object(var object) = value else {
            throw DecodingError.typeMismatch(
                JSONObject.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected an object with a \"type\", found \(value.kindDescription)"))
        }
        guard case .string(let type)? = object["type"] else {
            let found = object["type"].map { "found \($0.kindDescription)" } ?? "it is missing"
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [AnyCodingKey("type")],
                    debugDescription: "expected a type name (a string); \(found)"))
        }
        object["type"] = nil
        self.type = type
        self.settings = object
        self.relativePath = decoder.codingPath.map {
            $0.intValue.map(AnyCodingKey.init(intValue:)) ?? AnyCodingKey($0.stringValue)
        }
    }

    /// Encodes `{"type": "...", ...settings}`.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// The component as one JSON object, `type` first.
    public var json: JSONValue {
        var object = JSONObject([("type", .string(type))])
        for member in settings.members { object[member.key] = member.value }
        return .object(object)
    }

    /// Whether type and settings are equal (where it was written does not count).
    public static func == (lhs: ComponentConfiguration, rhs: ComponentConfiguration) -> Bool {
        lhs.type == rhs.type && lhs.settings == rhs.settings
    }

    /// Hashes type and settings.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(settings)
    }
}
