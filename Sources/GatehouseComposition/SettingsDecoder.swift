/// Decodes a plugin's `Decodable` settings from a ``JSONValue`` and notes every key the settings
/// type looked at, so that keys it never asked for are reported as unknown: a typo such as
/// `"subjcts"` must never pass silently.
final class SettingsDecoder {
    /// Keys a settings type did not read, as paths relative to the settings object, each with
    /// the key it most likely meant among those the type reads in the same object.
    private(set) var unreadKeys: [UnreadKey] = []
    private var readKeys: [String: Set<String>] = [:]
    private var objects: [(path: [any CodingKey], object: JSONObject)] = []

    /// Decodes `type` from `value`; keys in `ignoring` (at the top level) count as read.
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, ignoring: Set<String>) throws -> T {
        readKeys[""] = ignoring
        let result = try T(from: ValueDecoder(value: value, codingPath: [], owner: self))
        unreadKeys = []
        for (path, object) in objects {
            let read = readKeys[Self.pathText(path)] ?? []
            for key in object.keys where !read.contains(key) {
                unreadKeys.append(
                    UnreadKey(
                        path: path + [AnyCodingKey(key)],
                        suggestion: ConfigurationPath.suggestion(for: key, among: read.sorted())))
            }
        }
        return result
    }

    fileprivate func noteObject(_ object: JSONObject, at path: [any CodingKey]) {
        let text = Self.pathText(path)
        if !objects.contains(where: { Self.pathText($0.path) == text }) {
            objects.append((path, object))
        }
    }

    fileprivate func noteRead(_ key: String, at path: [any CodingKey]) {
        readKeys[Self.pathText(path), default: []].insert(key)
    }

    static func pathText(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let owner: SettingsDecoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: codingPath,
                    debugDescription: "expected an object, found \(value.kindDescription)"))
        }
        owner.noteObject(object, at: codingPath)
        return KeyedDecodingContainer(
            KeyedContainer<Key>(object: object, codingPath: codingPath, owner: owner))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else {
            throw DecodingError.typeMismatch(
                [Any].self,
                .init(
                    codingPath: codingPath,
                    debugDescription: "expected an array, found \(value.kindDescription)"))
        }
        return UnkeyedContainer(values: values, codingPath: codingPath, owner: owner)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath, owner: owner)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]
    let owner: SettingsDecoder

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        owner.noteRead(key.stringValue, at: codingPath)
        return object[key.stringValue] != nil
    }

    private func value(for key: Key) throws -> JSONValue {
        owner.noteRead(key.stringValue, at: codingPath)
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        owner.noteRead(key.stringValue, at: codingPath)
        return object[key.stringValue] == nil || object[key.stringValue] == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try value(for: key)
        return try SingleValue(value: value, codingPath: codingPath + [key], owner: owner).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: value(for: key), codingPath: codingPath + [key], owner: owner)
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(for: key), codingPath: codingPath + [key], owner: owner)
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(object), codingPath: codingPath, owner: owner)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: try value(for: key), codingPath: codingPath + [key], owner: owner)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let values: [JSONValue]
    let codingPath: [any CodingKey]
    let owner: SettingsDecoder
    var currentIndex = 0

    init(values: [JSONValue], codingPath: [any CodingKey], owner: SettingsDecoder) {
        self.values = values
        self.codingPath = codingPath
        self.owner = owner
    }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self,
                .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return (values[currentIndex], codingPath + [AnyCodingKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try SingleValue(value: value, codingPath: path, owner: owner).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path, owner: owner).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path, owner: owner).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, codingPath: path, owner: owner)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let owner: SettingsDecoder

    func decodeNil() -> Bool { value == .null }

    private func mismatch(_ expected: String) -> DecodingError {
        let found: String
        switch value {
        case .string(let text): found = "\"\(text)\""
        case .number(let text): found = text
        case .bool(let flag): found = String(flag)
        default: found = value.kindDescription
        }
        return DecodingError.typeMismatch(
            Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)"))
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("true or false") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch("a string") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let text) = value, let number = Double(text) else { throw mismatch("a number") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let text) = value else { throw mismatch("a whole number") }
        if let exact = T(text) { return exact }
        if let number = Double(text), number.rounded() == number, let exact = T(exactly: number) {
            return exact
        }
        throw mismatch("a whole number from \(T.min) to \(T.max)")
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == JSONValue.self, let value = value as? T { return value }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath, owner: owner))
    }
}

/// A key of a component's settings that its settings type never read: a typo, or a key of
/// another type.
struct UnreadKey {
    /// Where, relative to the component.
    var path: [any CodingKey]
    /// The key the type does read that is closest to it, if one is close.
    var suggestion: String?
}
