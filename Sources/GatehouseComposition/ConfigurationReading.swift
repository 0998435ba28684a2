/// How a configuration type reads itself through the ``ConfigurationDecoder``: its keys say what
/// the object holds, and a problem is reported at its place while reading goes on, so that every
/// problem of a file is found in one pass.
protocol ConfigurationKeys: CodingKey, CaseIterable {
    /// What the object is, for a value of another kind: `an object with "loader" and "gatekeepers"`.
    static var shape: String { get }
    /// Said after an unknown key: `a service has "loader", "cache", ...`.
    static var holds: String { get }
}

extension ConfigurationKeys {
    /// Every key the object may hold, in declaration order.
    static var names: [String] { allCases.map(\.stringValue) }

    /// The names quoted and listed: `"loader", "cache", "gatekeepers"`.
    static var quotedNames: String { names.map { "\"\($0)\"" }.joined(separator: ", ") }
}

/// A public configuration type read through the ``ConfigurationDecoder`` without a public
/// `Decodable` conformance of its own.
protocol ConfigurationReadable {
    /// Reads the value, reporting each problem at its place; throws
    /// ``ConfigurationDecoder/Recorded`` when the value cannot be had (its problems reported).
    init(reading decoder: any Decoder) throws
}

/// A ``ConfigurationReadable`` value as a `Decodable` one.
struct Reading<Value: ConfigurationReadable>: Decodable {
    var value: Value

    init(from decoder: any Decoder) throws {
        value = try Value(reading: decoder)
    }
}

extension Decoder {
    /// Reports `message` at `keys` below this value and goes on (a decoder other than the
    /// ``ConfigurationDecoder`` throws it).
    func report(_ message: String, at keys: any CodingKey...) throws {
        try ConfigurationDecoder.report(message, at: codingPath + keys, in: self)
    }

    /// The value as written, for a check of its kind.
    func json() throws -> JSONValue {
        try singleValueContainer().decode(JSONValue.self)
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or `nil` when it is absent, `null`, or bad (its problems reported).
    func read<T: ConfigurationReadable>(_ type: T.Type, ifGiven key: Key) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try readable { try decode(Reading<T>.self, forKey: key).value }
    }

    /// The value at `key`, or `nil` when it is absent or bad (its problems reported).
    func read<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        return try readable { try decode(type, forKey: key) }
    }

    /// The value as written at `key`, or `nil` when absent.
    func json(_ key: Key) throws -> JSONValue? {
        contains(key) ? try decode(JSONValue.self, forKey: key) : nil
    }

    /// The array of components at `key`, each read and its problems reported; empty when absent,
    /// or when any is bad (only a whole list keeps each component at its place, `gatekeepers[2]`).
    func components(_ key: Key, in decoder: any Decoder) throws -> [ComponentConfiguration] {
        guard let value = try json(key) else { return [] }
        guard case .array(let values) = value else {
            try decoder.report("expected an array of components, found \(value.kindDescription)", at: key)
            return []
        }
        var list = try nestedUnkeyedContainer(forKey: key)
        var components: [ComponentConfiguration] = []
        while !list.isAtEnd {
            try readable { try list.decode(ComponentConfiguration.self) }.map { components.append($0) }
        }
        return components.count == values.count ? components : []
    }

    /// The non-empty strings of the array at `key` (`noun`s), or `nil` when absent; every other
    /// element is reported, shown by `found`.
    func strings(
        _ key: Key, of noun: String, found: KeyPath<JSONValue, String>, in decoder: any Decoder
    ) throws -> [String]? {
        guard let value = try json(key) else { return nil }
        guard case .array(let values) = value else {
            try decoder.report("expected an array of \(noun)s, found \(value.kindDescription)", at: key)
            return []
        }
        var strings: [String] = []
        for (index, element) in values.enumerated() {
            if case .string(let text) = element, !text.isEmpty {
                strings.append(text)
            } else {
                try decoder.report(
                    "expected an \(noun) (a non-empty string), found \(element[keyPath: found])",
                    at: key, AnyCodingKey(intValue: index))
            }
        }
        return strings
    }

    /// The value at `key` when it is a positive whole number; `nil` when absent or not one
    /// (reported).
    func positiveInteger(
        _ key: Key, expected: String = "a positive whole number", in decoder: any Decoder
    ) throws -> Int? {
        guard let value = try json(key) else { return nil }
        guard case .number(let text) = value, let number = Int(text), number > 0 else {
            try decoder.report("expected \(expected), found \(value.shown)", at: key)
            return nil
        }
        return number
    }

    /// What `read` returns, or `nil` when it was bad and its problems are reported.
    private func readable<T>(_ read: () throws -> T) throws -> T? {
        do {
            return try read()
        } catch is ConfigurationDecoder.Recorded {
            return nil
        }
    }
}
