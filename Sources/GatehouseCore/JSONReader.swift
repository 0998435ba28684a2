/// A JSON value type that ``JSONReader`` builds: one constructor per kind of value (an enum's
/// cases can be them). Numbers come as their literal text; an object's members in their order.
package protocol JSONBuildable {
    static var null: Self { get }
    static func bool(_ value: Bool) -> Self
    static func number(_ text: String) -> Self
    static func string(_ text: String) -> Self
    static func array(_ values: [Self]) -> Self
    static func object(members: [(key: String, value: Self)]) -> Self
}

/// Why ``JSONReader`` refused a document, and where (1-based line and column, columns counted
/// in characters).
package struct JSONSyntaxError: Error {
    package var message: String
    package var line: Int
    package var column: Int
    /// When a key was written twice: the key, and the path of the object holding it (`""` for the
    /// top level, else as `metrics.a[0]`).
    package var duplicate: (key: String, objectPath: String)?
}

/// A strict JSON reader (RFC 8259) that reports the line and column of the first error, for
/// configurations and decision services' answers. A key written twice in one object is an error:
/// readers disagree on which counts, so keeping either could open a gate. Keys compare as Swift
/// strings (canonically equivalent spellings are one key).
package struct JSONReader<Value: JSONBuildable> {
    static var maximumDepth: Int { 64 }

    private let bytes: [UInt8]
    private var position = 0
    /// One entry per enclosing array or object (`metrics`, `.a`, `[0]`).
    private var path: [String] = []

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a whole document: one value, surrounded only by white space.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> Value {
        var parser = JSONReader(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> Value {
        guard position < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private func enter() throws(JSONSyntaxError) {
        guard path.count < Self.maximumDepth else {
            throw error("nested deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> Value {
        try enter()
        position += 1
        var members: [(key: String, value: Value)] = []
        var keys: Set<String> = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members: members) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a key in double quotes")
            }
            let keyStart = position
            let key = try parseString()
            guard keys.insert(key).inserted else {
                var failure = error("duplicate key \"\(key)\"", at: keyStart)
                failure.duplicate = (key, path.joined())
                throw failure
            }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else {
                throw error("unexpected \(describeCurrent()), expected ':' after key \"\(key)\"")
            }
            skipWhitespace()
            path.append(path.isEmpty ? key : "." + key)
            members.append((key, try parseValue()))
            path.removeLast()
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .object(members: members) }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> Value {
        try enter()
        position += 1
        var values: [Value] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(values) }
        while true {
            skipWhitespace()
            path.append("[\(values.count)]")
            values.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(values) }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: Value) throws(JSONSyntaxError) -> Value {
        guard bytes[position...].starts(with: word.utf8) else {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        position += word.utf8.count
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Value {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("a number may not start with 0", at: start)
            }
        } else {
            guard consumeDigits() else { throw error("expected a digit", at: position) }
        }
        if consume(UInt8(ascii: ".")) {
            guard consumeDigits() else { throw error("expected a digit after '.'") }
        }
        if position < bytes.count,
            bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
        {
            position += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard consumeDigits() else { throw error("expected a digit in the exponent") }
        }
        return .number(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    private mutating func consumeDigits() -> Bool {
        let start = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        return position > start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        position += 1
        var scalars = String.UnicodeScalarView()
        var segmentStart = position
        func flush(_ end: Int) throws(JSONSyntaxError) {
            guard segmentStart < end else { return }
            guard let text = String(validating: bytes[segmentStart..<end], as: UTF8.self) else {
                throw error("the string is not valid UTF-8", at: segmentStart)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard position < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                try flush(position)
                position += 1
                return String(scalars)
            }
            if byte < 0x20 {
                throw error("a control character must be escaped in a string")
            }
            if byte == UInt8(ascii: "\\") {
                try flush(position)
                position += 1
                scalars.append(try parseEscape())
                segmentStart = position
                continue
            }
            position += 1
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard position < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                    throw error("a high surrogate must be followed by a low surrogate escape")
                }
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value) ?? "\u{FFFD}"
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw error("a lone low surrogate is not a character")
            }
            return scalar
        default:
            position -= 1
            throw error("invalid escape \\\(describeCurrent())")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = Character(Unicode.Scalar(bytes[position])).hexDigitValue
            else {
                throw error("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of file" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 {
            // Name the character (a curly quote, a no-break space…), or say the bytes are not UTF-8.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let end = min(position + length, bytes.count)
            guard let scalar = String(validating: bytes[position..<end], as: UTF8.self)?.unicodeScalars.first
            else {
                return "byte 0x\(String(byte, radix: 16, uppercase: true)), which is not UTF-8"
            }
            return scalar.properties.name.map { "\(scalar.codePoint) (\($0))" } ?? scalar.codePoint
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        let column = bytes[lineStart..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return JSONSyntaxError(message: message, line: line, column: column)
    }
}
