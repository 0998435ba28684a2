/// One component of a service: a `type` registered in the ``PluginRegistry`` and its settings.
/// Settings that nest gatekeepers (like `allOf`'s) hold these, built with
/// ``PluginContext/gatekeeper(_:)``.
public struct ComponentConfiguration: Sendable, Hashable, Codable {
    /// The registered type name, such as `"allowList"`.
    public var type: String
    /// The other keys of the component, in file order.
    package var settings: JSONObject
    /// Where it sat relative to the settings being decoded, for error paths.
    var relativePath: [AnyCodingKey] {
        get { place.keys }
        set { place.keys = newValue }
    }
    /// ``relativePath``, out of equality and hashing: components are equal wherever written.
    private var place = Place()

    /// Creates a component of `type` with `settings` (without the `type` key).
    package init(type: String, settings: JSONObject = JSONObject()) {
        self.type = type
        self.settings = settings
    }

    /// Decodes `{"type": "...", ...settings}`.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.json()
        guard case .object(var object) = value else {
            throw DecodingError.typeMismatch(
                JSONObject.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected an object with a \"type\", found \(value.kindDescription)"))
        }
        let typeKey = AnyCodingKey(stringValue: "type")
        switch object["type"] {
        case .string(let type)?:
            object["type"] = nil
            self.init(type: type, settings: object)
        case nil:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [typeKey],
                    debugDescription: "missing; every component names its type"))
        case let other?:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [typeKey],
                    debugDescription: "expected a type name (a string), found \(other.kindDescription)"))
        }
        relativePath = decoder.codingPath.map {
            $0.intValue.map(AnyCodingKey.init(intValue:)) ?? AnyCodingKey(stringValue: $0.stringValue)
        }
    }

    /// Encodes `{"type": "...", ...settings}`.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// The component as one JSON object, `type` first.
    package var json: JSONValue {
        var object = JSONObject([("type", .string(type))])
        for member in settings.members { object[member.key] = member.value }
        return .object(object)
    }
}

/// Where a component was written: equal to every other place, so that it does not count in a
/// component's equality or hash.
private struct Place: Sendable, Hashable {
    var keys: [AnyCodingKey] = []

    static func == (lhs: Place, rhs: Place) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
