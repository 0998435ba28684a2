/// The rule that makes gates and loaders agree on which resource a request names.
///
/// Gates compare text byte for byte; loaders look keys up in ways that may not (a Swift
/// `Dictionary` treats canonically equivalent strings as one key, and a file system may ignore
/// case or normalization). So before any gate runs, ``AccessProxy`` asks its identity rule about
/// the request's resource and refuses, with a denial that says what is wrong, a resource that
/// could name something other than what the gates see:
///
/// - text that is not in Unicode Normalization Form C (NFC) as the Swift runtime normalizes it
///   (``normalized(_:)``): `"\u{212A}eys/master"` (KELVIN SIGN) or `"cafe\u{301}"` (a combining
///   accent) is refused, where `"Keys/master"` and `"café"` are not;
/// - a control character: C0 (U+0000–U+001F, NUL and newline included), DEL (U+007F) or C1
///   (U+0080–U+009F);
/// - with ``path`` (the default), a path that is empty, starts with `/`, or has an empty, `.`
///   or `..` component (`a//b`, `a/`, `a/./b`, `a/../b`).
///
/// Compatibility forms that NFC keeps (`"ﬁ"`, full-width letters) are distinct resources both to
/// the gates and to a `Dictionary`, so they are allowed.
///
/// ```swift
/// ResourceIdentity.path.violation(in: "tenants/acme/../globex/plan.txt")  // .dotDotComponent
/// ResourceIdentity.path.violation(in: "tenants/acme/plan.txt")            // nil
/// ```
public struct ResourceIdentity: Sendable, Hashable {
    /// Whether resources are paths of `/`-separated components (and so are checked as paths).
    public var checksPath: Bool

    /// Resources are relative paths: NFC, no control character, no leading `/`, no empty, `.`
    /// or `..` component. The default of ``AccessProxy``.
    public static let path = ResourceIdentity(checksPath: true)

    /// Resources are plain text (URLs, identifiers): NFC and no control character only.
    public static let text = ResourceIdentity(checksPath: false)

    /// Creates a rule; see ``path`` and ``text``.
    public init(checksPath: Bool) {
        self.checksPath = checksPath
    }

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
        // One pass over the bytes settles the common case, printable ASCII (always NFC, free of
        // controls) with no component that could break the path rules; anything else is looked
        // at again below.
        var scan = ASCIIPathScan()
        for byte in resource.utf8 { scan.read(byte) }
        if scan.isPrintableASCII {
            guard checksPath, scan.mayBreakPathRules || scan.endsWithSlash else { return nil }
            return Self.pathViolation(in: resource)
        }
        for (offset, scalar) in resource.unicodeScalars.enumerated() where Self.isControl(scalar) {
            return .controlCharacter(scalar, offset: offset)
        }
        let normalized = Self.normalized(resource)
        if !normalized.utf8.elementsEqual(resource.utf8) {
            return .notNFC(normalized: normalized)
        }
        return checksPath ? Self.pathViolation(in: resource) : nil
    }

    /// Throws the first thing wrong with `resource`; see ``violation(in:)``.
    ///
    /// - Throws: ``Violation``.
    public func check(_ resource: String) throws(Violation) {
        if let violation = violation(in: resource) {
            throw violation
        }
    }

    /// `text` in Unicode Normalization Form C (NFC), as the Swift runtime normalizes it: the one
    /// spelling that gates compare and that patterns, group members, condition and placeholder
    /// values are normalized to.
    ///
    /// Two strings are `==` (and one key to a `Dictionary` or `Set`) exactly when their
    /// normalized forms have the same bytes, because both come from the runtime's Unicode data
    /// (Unicode 17 in Swift 6.3). Foundation's `precomposedStringWithCanonicalMapping` is not
    /// used: its tables are older, so it took `"\u{11382}\u{113C9}"` for NFC while `==` found it
    /// equal to `"\u{11383}"`, and a deny written for one spelling did not hold for the other.
    public static func normalized(_ text: String) -> String {
        // ASCII is always NFC: no copy for the common case.
        text.utf8.allSatisfy { $0 < 0x80 } ? text : String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// Whether `scalar` is a C0 or C1 control character or DEL; shared with the policies'
    /// pattern check.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    private static func pathViolation(in resource: String) -> Violation? {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        let bytes = resource.utf8
        guard let first = bytes.first else { return .empty }
        guard first != slash else { return .leadingSlash }
        var length = 0
        var dots = 0
        for byte in bytes {
            if byte == slash {
                if let violation = componentViolation(length: length, dots: dots) { return violation }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == dot { dots += 1 }
            }
        }
        return componentViolation(length: length, dots: dots)
    }

    /// What is wrong with a component of `length` bytes, `dots` of them `.`.
    private static func componentViolation(length: Int, dots: Int) -> Violation? {
        switch (length, dots) {
        case (0, _): .emptyComponent
        case (1, 1): .dotComponent
        case (2, 2): .dotDotComponent
        default: nil
        }
    }
}

/// The first pass over a resource's bytes: whether they are all printable ASCII (then the text
/// is NFC and free of controls), and whether the path could break a rule. Nothing can be wrong
/// with a path of printable ASCII unless two slashes meet, a component starts with a dot, or it
/// starts or ends with a slash; only then is the exact check needed.
private struct ASCIIPathScan {
    /// Non-zero once a byte outside printable ASCII was read.
    private var outside: UInt8 = 0
    /// Whether a slash or dot followed a slash (or started the text).
    private(set) var mayBreakPathRules = false
    /// Whether the last byte read is a slash; a slash stands before the first byte, so that a
    /// leading slash or dot is noticed like one after a slash.
    private(set) var endsWithSlash = true

    /// Reads the next byte.
    mutating func read(_ byte: UInt8) {
        outside |= byte &- 0x20 > 0x5E ? 1 : 0
        // `/` is 0x2F and `.` is 0x2E: `byte | 1 == 0x2F` holds for exactly those two.
        if byte | 1 == 0x2F {
            if endsWithSlash { mayBreakPathRules = true }
            endsWithSlash = byte == UInt8(ascii: "/")
        } else {
            endsWithSlash = false
        }
    }

    /// Whether every byte read is printable ASCII.
    var isPrintableASCII: Bool { outside == 0 }
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
