import GatehouseCore

/// The path rules of ``DiskLoader`` (docs/loaders.md), checked in one pass over a key's UTF-8
/// bytes. NFC is required because the gate refuses other spellings, and a file system that keeps
/// bytes would take one for another file than its NFC spelling.
enum DiskKeyRules {
    /// In UTF-8 bytes.
    static let maximumKeyLength = 1024
    static let maximumComponentLength = 255

    /// Why the key is not valid, or `nil` after setting `lastComponent` to where its last
    /// component starts.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, lastComponent: inout Int) -> String? {
        let length = bytes.count
        var componentStart = 0
        var previous: UInt8 = 0
        var isASCII = true
        for index in bytes.indices {
            let byte = bytes[index]
            // Printable ASCII other than "/" and "\" needs no check (most bytes of most keys).
            if byte &- 0x20 < 0x5F && byte != 0x2F && byte != 0x5C {
                previous = byte
                continue
            }
            if byte >= 0x80 { isASCII = false }
            switch byte {
            case 0x2F:
                if let reason = checkComponent(bytes, from: componentStart, to: index) { return reason }
                componentStart = index + 1
            case 0x00:
                return "it contains a NUL character"
            case 0x01...0x1F, 0x7F,
                0x80...0x9F where previous == 0xC2:
                return "it contains the control character \(Unicode.Scalar(byte).codePoint)"
            case 0x5C:
                return "it contains a backslash"
            default:
                break
            }
            previous = byte
        }
        if length == 0 { return "it is empty" }
        if componentStart == length { return "it ends with \"/\"" }
        if let reason = checkComponent(bytes, from: componentStart, to: length) { return reason }
        if !isASCII
            && !ResourceIdentity.normalized(String(decoding: bytes, as: UTF8.self)).utf8.elementsEqual(bytes)
        {
            return "it is not in Unicode NFC; write the NFC spelling of the name, the one the gate admits"
        }
        lastComponent = componentStart
        return nil
    }

    /// Checks the length, then the bytes.
    static func check(_ key: String, lastComponent: inout Int) -> String? {
        let length = key.utf8.count
        guard length <= maximumKeyLength else {
            return "it is \(length) bytes long, more than \(maximumKeyLength)"
        }
        var key = key
        return key.withUTF8 { check($0, lastComponent: &lastComponent) }
    }

    /// Why `key` is not valid, or `nil`.
    static func check(_ key: String) -> String? {
        var lastComponent = 0
        return check(key, lastComponent: &lastComponent)
    }

    private static func checkComponent(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> String? {
        switch end - start {
        case 0:
            return start == 0
                ? "it starts with \"/\", so it is an absolute path"
                : "it contains an empty component (\"//\")"
        case 1 where buffer[start] == 0x2E:
            return "it contains a \".\" component"
        case 2 where buffer[start] == 0x2E && buffer[start + 1] == 0x2E:
            return "it contains a \"..\" component"
        case let length where length > maximumComponentLength:
            return "a component is \(length) bytes long, more than \(maximumComponentLength)"
        default:
            return nil
        }
    }
}
