import Foundation

/// A strict JSON reader (RFC 8259) for a decision service's answer, which refuses a key written
/// twice in one object, at any depth.
///
/// Readers disagree about such an object: OPA's keeps the last `"result"`, Foundation's the
/// first, so `{"result": true, "result": false}` would be an allow here and a deny in the
/// service's own log (and `not(remote)` would invert it). An answer with a duplicate key is no
/// decision: the gate fails. Keys are compared as Swift compares strings (after escapes are
/// read, canonically equivalent spellings are one key), which catches every pair a byte
/// comparison catches and more. Nesting is limited to ``maximumDepth`` levels.
struct AnswerReader {
    /// How deep arrays and objects may nest; a decision needs two levels.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads a whole body: one value, surrounded only by white space.
    static func read(_ bytes: [UInt8]) throws(AnswerShapeError) -> AnswerJSON {
        var reader = AnswerReader(bytes)
        reader.skipWhitespace()
        let value = try reader.readValue(at: "")
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw reader.notJSON() }
        return value
    }

    private mutating func readValue(at path: String) throws(AnswerShapeError) -> AnswerJSON {
        guard position < bytes.count else { throw notJSON() }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject(at: path)
        case UInt8(ascii: "["): return try readArray(at: path)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try readLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw notJSON()
        }
    }

    private mutating func enter() throws(AnswerShapeError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw AnswerShapeError("the body is nested deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func readObject(at path: String) throws(AnswerShapeError) -> AnswerJSON {
        try enter()
        defer { depth -= 1 }
        position += 1
        var members: [String: AnswerJSON] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw notJSON() }
            let key = try readString()
            guard members[key] == nil else {
                let place = path.isEmpty ? "the answer" : "\"\(Excerpt.text(path, limit: 120))\""
                throw AnswerShapeError(
                    "the key \"\(Excerpt.text(key, limit: 120))\" appears more than once in \(place); an answer with a duplicate key is ambiguous"
                )
            }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw notJSON() }
            skipWhitespace()
            members[key] = try readValue(at: path.isEmpty ? key : path + "." + key)
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .object(members) }
            throw notJSON()
        }
    }

    private mutating func readArray(at path: String) throws(AnswerShapeError) -> AnswerJSON {
        try enter()
        defer { depth -= 1 }
        position += 1
        var values: [AnswerJSON] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(values) }
        while true {
            skipWhitespace()
            values.append(try readValue(at: "\(path)[\(values.count)]"))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(values) }
            throw notJSON()
        }
    }

    private mutating func readLiteral(_ word: String, _ value: AnswerJSON) throws(AnswerShapeError)
        -> AnswerJSON
    {
        for byte in word.utf8 {
            guard consume(byte) else { throw notJSON() }
        }
        return value
    }

    private mutating func readNumber() throws(AnswerShapeError) -> AnswerJSON {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if position < bytes.count, isDigit(bytes[position]) { throw notJSON() }
        } else {
            guard consumeDigits() else { throw notJSON() }
        }
        if consume(UInt8(ascii: ".")) {
            guard consumeDigits() else { throw notJSON() }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard consumeDigits() else { throw notJSON() }
        }
        guard let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            throw notJSON()
        }
        return .number(number)
    }

    private mutating func consumeDigits() -> Bool {
        let start = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        return position > start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func readString() throws(AnswerShapeError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var segmentStart = position
        func flush(_ end: Int) throws(AnswerShapeError) {
            guard segmentStart < end else { return }
            guard let text = String(validating: bytes[segmentStart..<end], as: UTF8.self) else {
                throw AnswerShapeError("the body is not valid UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                try flush(position)
                position += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw notJSON() }
            if byte == UInt8(ascii: "\\") {
                try flush(position)
                position += 1
                scalars.append(try readEscape())
                segmentStart = position
                continue
            }
            position += 1
        }
        throw notJSON()
    }

    private mutating func readEscape() throws(AnswerShapeError) -> Unicode.Scalar {
        guard position < bytes.count else { throw notJSON() }
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
            let high = try readHex4()
            guard (0xD800..<0xDC00).contains(high) else {
                // A lone low surrogate is no character.
                guard let scalar = Unicode.Scalar(high) else { throw notJSON() }
                return scalar
            }
            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else { throw notJSON() }
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw notJSON() }
            return scalar
        default:
            throw notJSON()
        }
    }

    private mutating func readHex4() throws(AnswerShapeError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = hexValue(bytes[position]) else { throw notJSON() }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
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

    /// The error for a body that is not JSON, showing its start.
    private func notJSON() -> AnswerShapeError {
        AnswerShapeError("the body is not JSON (\(Excerpt.of(Data(bytes))))")
    }
}
