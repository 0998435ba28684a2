/// The rule that makes gates and loaders agree on which resource a request names: before any
/// gatekeeper, text not in Unicode NFC or holding a control character is refused, and with
/// ``path`` an empty, absolute or `.`/`..` path too. See docs/security.md.
public struct ResourceIdentity: Sendable, Hashable {
    let checksPath: Bool

    /// Resources are relative paths: NFC, no control character, no leading `/`, no empty, `.`
    /// or `..` component. The default.
    public static let path = ResourceIdentity(checksPath: true)

    /// Resources are plain text (URLs, identifiers): NFC and no control character only.
    public static let text = ResourceIdentity(checksPath: false)

    /// What is wrong with a resource text.
    public enum Violation: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text is not in Unicode NFC; `normalized` is its NFC form.
        case notNFC(normalized: String)
        /// The text holds a control character; `offset` counts Unicode scalars from 0.
        case controlCharacter(Unicode.Scalar, offset: Int)
        /// The path is empty.
        case empty
        /// The path starts with `/`.
        case leadingSlash
        /// The path has an empty component (`a//b`, or a trailing `/`).
        case emptyComponent
        /// The path has a `.` component.
        case dotComponent
        /// The path has a `..` component.
        case dotDotComponent

        /// A sentence fragment that completes "the resource …".
        public var description: String {
            switch self {
            case .notNFC(let normalized):
                "is not in Unicode NFC (as NFC it is \(escaped(normalized))); a key is spelled in "
                    + "NFC so that gates and loaders agree on what it names"
            case .controlCharacter(let scalar, let offset):
                "holds the control character \(scalar.codePoint) at position \(offset)"
            case .empty:
                "is empty; expected a relative path such as \"avatars/alice.png\""
            case .leadingSlash:
                "starts with \"/\"; expected a relative path such as \"avatars/alice.png\""
            case .emptyComponent:
                "has an empty path component (\"//\" or a trailing \"/\")"
            case .dotComponent:
                "has a \".\" path component"
            case .dotDotComponent:
                "has a \"..\" path component, which would name a resource outside its folder"
            }
        }
    }

    /// The first thing wrong with `resource`, or `nil` when it names one resource unambiguously.
    public func violation(in resource: String) -> Violation? {
        for (offset, scalar) in resource.unicodeScalars.enumerated() where Self.isControl(scalar) {
            return .controlCharacter(scalar, offset: offset)
        }
        // ASCII text is in NFC.
        if !resource.utf8.allSatisfy({ $0 < 0x80 }) {
            let normalized = Self.normalized(resource)
            if !normalized.utf8.elementsEqual(resource.utf8) { return .notNFC(normalized: normalized) }
        }
        return checksPath ? Self.pathViolation(in: resource) : nil
    }

    /// `text` in NFC as `String ==` compares it; Foundation's NFC uses older Unicode tables.
    public static func normalized(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// Whether `scalar` is C0, DEL or C1.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    private static func pathViolation(in resource: String) -> Violation? {
        // Bytes, not `Character`s: `/` followed by a combining mark is one `Character`, and a
        // loader sees the `/` all the same. One pass, no array of components.
        let slash = UInt8(ascii: "/")
        guard let first = resource.utf8.first else { return .empty }
        if first == slash { return .leadingSlash }
        var length = 0
        var onlyDots = true
        for byte in resource.utf8 {
            if byte == slash {
                if let violation = componentViolation(length: length, onlyDots: onlyDots) { return violation }
                (length, onlyDots) = (0, true)
            } else {
                length += 1
                onlyDots = onlyDots && byte == UInt8(ascii: ".")
            }
        }
        return componentViolation(length: length, onlyDots: onlyDots)
    }

    /// The violation of a path component of `length` bytes, all dots when `onlyDots`.
    private static func componentViolation(length: Int, onlyDots: Bool) -> Violation? {
        guard onlyDots else { return nil }
        switch length {
        case 0: return .emptyComponent
        case 1: return .dotComponent
        case 2: return .dotDotComponent
        default: return nil
        }
    }
}

/// `"text"` with control characters, `"` and `\` written as `\u{…}`, for a message.
private func escaped(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        if ResourceIdentity.isControl(scalar) || scalar == "\"" || scalar == "\\" {
            result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

extension Unicode.Scalar {
    /// `U+000A`: the scalar's code point as written in messages.
    package var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
