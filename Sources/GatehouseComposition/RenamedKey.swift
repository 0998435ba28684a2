/// A setting read under its name or, as before, under its older name: `"gatekeepers"` or
/// `"policies"`, `"gatekeeper"` or `"policy"`. Both given is an error, for neither is sure to win.
struct RenamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    /// Every name a renamed setting is read under, so that any other key counts as unknown.
    static let names: Set = ["gatekeepers", "policies", "gatekeeper", "policy"]

    init?(stringValue: String) {
        guard Self.names.contains(stringValue) else { return nil }
        self.stringValue = stringValue
    }

    init?(intValue: Int) { nil }

    private init(_ name: String) { stringValue = name }

    /// The value under `key` or `oldKey` and the key it was given under; throws when it is
    /// under neither (missing, reported at `key`) or under both.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from decoder: any Decoder, key: String, oldKey: String
    ) throws -> (value: Value, key: String) {
        let container = try decoder.container(keyedBy: RenamedKey.self)
        let (new, old) = (RenamedKey(key), RenamedKey(oldKey))
        switch (container.contains(new), container.contains(old)) {
        case (true, true):
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [old],
                    debugDescription: "give \"\(key)\" or its older name \"\(oldKey)\", not both"))
        case (false, true):
            return (try container.decode(Value.self, forKey: old), oldKey)
        default:
            return (try container.decode(Value.self, forKey: new), key)
        }
    }
}
