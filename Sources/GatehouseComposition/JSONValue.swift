import GatehouseCore

/// A JSON value as written in a configuration file; numbers keep their literal text, so
/// `10000000` stays exact whatever width it is read as.
package enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal text (`"500"`, `"1.5e3"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Keys keep their order of appearance in ``JSONObject``.
    case object(JSONObject)

    /// The JSON type's name, for messages: `"a string"`, `"an object"`, ...
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object whose keys keep the order they were written in, so errors and `describe` follow
/// the file; equality ignores the order, as JSON does.
package struct JSONObject: Sendable, Hashable {
    /// The members in the order they were written.
    package private(set) var members: [(key: String, value: JSONValue)]
    private var index: [String: Int]

    /// Creates an object from members in order; a repeated key keeps its last value.
    package init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = []
        self.index = [:]
        for member in members { self[member.key] = member.value }
    }

    /// The value for `key`, or `nil`; setting replaces in place or appends.
    package subscript(key: String) -> JSONValue? {
        get { index[key].map { members[$0].value } }
        set {
            if let position = index[key] {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
                }
            } else if let newValue {
                index[key] = members.count
                members.append((key, newValue))
            }
        }
    }

    /// The keys in the order they were written.
    package var keys: [String] { members.map(\.key) }

    /// Whether the objects have the same members; as in JSON, their order does not matter.
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes the members regardless of their order.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(combined)
    }
}

extension JSONValue {
    /// The value for messages: a string in quotes, a number or boolean as written, else its kind.
    var shown: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .number(let text): text
        case .bool(let flag): String(flag)
        default: kindDescription
        }
    }
}

/// The configuration reader: strict JSON, errors by line and column, duplicate keys refused.
package typealias JSONParser = JSONReader<JSONValue>

extension JSONValue: JSONBuildable {
    /// Builds an object from its members in order.
    package static func object(members: [(key: String, value: JSONValue)]) -> JSONValue {
        .object(JSONObject(members))
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number(String(value))
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let keyed = try decoder.container(keyedBy: AnyCodingKey.self)
            self = .object(
                JSONObject(
                    try keyed.allKeys.map { ($0.stringValue, try keyed.decode(JSONValue.self, forKey: $0)) }))
        }
    }

    /// Encodes the value as JSON.
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int(text) {
                try container.encode(integer)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object.members {
                try container.encode(member.value, forKey: AnyCodingKey(stringValue: member.key))
            }
        }
    }
}

/// A coding key for any string or index.
struct AnyCodingKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
