import GatehouseCore

/// The one reader of configuration: decodes a `Decodable` (a whole configuration, or a plugin's
/// settings) from the JSON as read. It notes every key a type reads, so that the others are
/// reported as unknown (a typo such as `"subjcts"` must never pass silently), and notes a bad
/// value and stands a value in for it, so that every problem is reported at once, at its path.
final class ConfigurationDecoder {
    /// One problem, its path relative to the value decoded.
    struct Issue {
        var path: [any CodingKey]
        var message: String
    }

    /// What one decoding found: the value (`nil` when a problem left nothing to stand in for it),
    /// the unknown keys in file order, every other problem in the order decoding met it, and an
    /// error of another kind that a type threw (a plugin's own `ConfigurationError`).
    struct Outcome<Value> {
        var value: Value?
        var unknownKeys: [Issue]
        var problems: [Issue]
        var error: (any Error)?
    }

    /// Thrown in place of a value that was bad and has no stand-in; its problem is noted already.
    struct Recorded: Error {}

    /// A plugin's settings that could not be read: every problem, in the order met.
    struct Problems: Error {
        var issues: [Issue]
    }

    private var readKeys: [String: Set<String>] = [:]
    private var objects: [(path: [any CodingKey], object: JSONObject, unrepresentable: Set<String>)] = []
    private var problems: [Issue] = []
    /// Whether a bad value is noted and stood in for (not while looking for a stand-in).
    private var recovers = true

    private init() {}

    /// Decodes `type` from `value`; keys in `ignoring` (at the top level) count as read.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, ignoring: Set<String> = []
    ) -> Outcome<T> {
        let decoder = ConfigurationDecoder()
        decoder.readKeys = ["": ignoring]
        var error: (any Error)?
        do {
            let value = try T(from: ValueDecoder(value: value, codingPath: [], owner: decoder))
            return Outcome(
                value: value, unknownKeys: decoder.unknownKeys(failed: false), problems: decoder.problems)
        } catch let decoding as DecodingError {
            decoder.note(decoding)
        } catch is Recorded {
        } catch let other {
            error = other
        }
        return Outcome(
            unknownKeys: decoder.unknownKeys(failed: true), problems: decoder.problems, error: error)
    }

    /// Whether `decoder` is this reader's, which notes problems rather than throwing them.
    static func isReading(_ decoder: any Decoder) -> Bool {
        decoder is ValueDecoder
    }

    /// Notes a problem at `path` and goes on; a decoder other than this reader's throws it.
    static func report(_ message: String, at path: [any CodingKey], in decoder: any Decoder) throws {
        guard let decoder = decoder as? ValueDecoder else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: message))
        }
        guard decoder.owner.recovers else { throw Recorded() }
        decoder.owner.problems.append(Issue(path: path, message: message))
    }

    /// How many problems `decoder`'s reader has noted so far (none for another decoder).
    static func problemCount(of decoder: any Decoder) -> Int {
        (decoder as? ValueDecoder)?.owner.problems.count ?? 0
    }

    private func note(_ error: DecodingError) {
        problems.append(Self.issue(error))
    }

    /// `error` as a problem at its coding path: a key not found is `missing`, any other error
    /// says what its description says.
    static func issue(_ error: DecodingError) -> Issue {
        switch error {
        case .keyNotFound(let key, let context):
            Issue(path: context.codingPath + [key], message: "missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            Issue(path: context.codingPath, message: context.debugDescription)
        @unknown default:
            Issue(path: [], message: String(describing: error))
        }
    }

    /// Notes `error` and returns a stand-in for the `T` that could not be decoded, or throws
    /// ``Recorded``.
    fileprivate func recover<T: Decodable>(from error: any Error, as type: T.Type) throws -> T {
        guard recovers, let error = error as? DecodingError else { throw error }
        note(error)
        if let placeholder = (T.self as? any SettingPlaceholder.Type)?.placeholder as? T {
            return placeholder
        }
        let trial = ConfigurationDecoder()
        trial.recovers = false
        let candidates: [JSONValue] = [
            .null, .object(JSONObject()), .array([]), .string(""), .bool(false), .number("0"),
        ]
        for candidate in candidates {
            if let value = try? T(from: ValueDecoder(value: candidate, codingPath: [], owner: trial)) {
                return value
            }
        }
        throw Recorded()
    }

    /// After a failed decoding, only keys the `CodingKey` type cannot represent are surely unknown.
    private func unknownKeys(failed: Bool) -> [Issue] {
        var unknown: [Issue] = []
        for (path, object, unrepresentable) in objects {
            let read = readKeys[Self.pathText(path)] ?? []
            for key in object.keys where !read.contains(key) && (!failed || unrepresentable.contains(key)) {
                let candidates = read.filter { object[$0] == nil }.sorted()
                unknown.append(
                    Issue(
                        path: path + [AnyCodingKey(stringValue: key)],
                        message: closestName(to: key, among: candidates).map {
                            "unknown key (did you mean \"\($0)\"?)"
                        } ?? "unknown key; check its spelling against the documentation of this type"))
            }
        }
        return unknown
    }

    /// Notes an object being read: a type that says what it holds (``ConfigurationKeys``) has its
    /// unknown keys reported at once, the others once decoding is over.
    fileprivate func noteObject<Key: CodingKey>(
        _ object: JSONObject, at path: [any CodingKey], keyedBy: Key.Type
    ) {
        if let keys = Key.self as? any ConfigurationKeys.Type {
            guard recovers else { return }
            for key in object.keys where Key(stringValue: key) == nil {
                let hint = ConfigurationPath.didYouMean(key, among: keys.names)
                problems.append(
                    Issue(
                        path: path + [AnyCodingKey(stringValue: key)],
                        message: "unknown key\(hint); \(keys.holds)"))
            }
            return
        }
        let text = Self.pathText(path)
        if !objects.contains(where: { Self.pathText($0.path) == text }) {
            objects.append((path, object, Set(object.keys.filter { Key(stringValue: $0) == nil })))
        }
    }

    fileprivate func noteRead(_ key: String, at path: [any CodingKey]) {
        readKeys[Self.pathText(path), default: []].insert(key)
    }

    static func pathText(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// A decoder of one value, which is also its own single-value container.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let owner: ConfigurationDecoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            let shape = (Key.self as? any ConfigurationKeys.Type)?.shape ?? "an object"
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: codingPath,
                    debugDescription: "expected \(shape), found \(value.kindDescription)"))
        }
        owner.noteObject(object, at: codingPath, keyedBy: Key.self)
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

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]
    let owner: ConfigurationDecoder

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        owner.noteRead(key.stringValue, at: codingPath)
        return object[key.stringValue] != nil
    }

    /// The decoder of the value at `key`, noted as read.
    private func decoder(for key: Key) throws -> ValueDecoder {
        owner.noteRead(key.stringValue, at: codingPath)
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key], owner: owner)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        owner.noteRead(key.stringValue, at: codingPath)
        return object[key.stringValue] == nil || object[key.stringValue] == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        do {
            return try decoder(for: key).decode(type)
        } catch {
            return try owner.recover(from: error, as: type)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(object), codingPath: codingPath, owner: owner)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder(for: key)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let values: [JSONValue]
    let codingPath: [any CodingKey]
    let owner: ConfigurationDecoder
    var currentIndex = 0

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    /// The decoder of the next element.
    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self,
                .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        let path = codingPath + [AnyCodingKey(intValue: currentIndex)]
        return ValueDecoder(value: values[currentIndex], codingPath: path, owner: owner)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try next()
        do {
            return try element.decode(type)
        } catch {
            return try owner.recover(from: error, as: type)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next()
    }
}

extension ValueDecoder {
    func decodeNil() -> Bool { value == .null }

    private func mismatch(_ expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            Any.self,
            .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.shown)"))
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

    /// Any other type, the integers of every width among them (one witness for all ten).
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == JSONValue.self, let value = value as? T { return value }
        if let integerType = type as? any FixedWidthInteger.Type, let integer = try integer(integerType) as? T
        {
            return integer
        }
        return try T(from: self)
    }
}

/// A settings type with a value that stands in for a bad one, never used to build anything.
protocol SettingPlaceholder {
    static var placeholder: Self { get }
}
