import Foundation
import GatehouseCore

/// Writes an `AccessRecord` as one line of JSON with OPA's field names. Hand-written, not
/// `JSONEncoder`: keys in a fixed order and no raw line break, so one record is one line.
struct DecisionLine {
    /// Attribute keys removed from `input.attributes` and listed under `erased`.
    let mask: Set<String>

    /// Appends the record's line, newline included.
    func append(_ record: AccessRecord, to bytes: inout [UInt8]) {
        let request = record.request
        let verdict = record.verdict
        Self.raw(#"{"decision_id":"\#(record.requestID.uuidString.lowercased())","timestamp":""#, to: &bytes)
        Timestamp.append(record.instant, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if let service = record.service {
            Self.member("service", service, to: &bytes)
        }
        Self.raw(#","input":{"#, to: &bytes)
        if let subject = request.subject {
            Self.raw(#""subject":"#, to: &bytes)
            Self.string(subject, to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        Self.raw(#""action":"#, to: &bytes)
        Self.string(request.action.rawValue, to: &bytes)
        Self.member("resource", request.resource, to: &bytes)
        Self.raw(#","attributes":{"#, to: &bytes)
        let keys = request.attributes.keys.sorted()
        let erased = keys.filter(mask.contains)
        for (index, key) in keys.filter({ !mask.contains($0) }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.string(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            Self.string(request.attributes[key] ?? "", to: &bytes)
        }
        // Beside the attributes, whose each value is: the resource's or the caller's.
        Self.raw(#"},"origins":{"#, to: &bytes)
        for (index, key) in keys.filter({ !mask.contains($0) }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.string(key, to: &bytes)
            Self.raw(
                request.resourceAttributeNames.contains(key) ? #":"resource""# : #":"caller""#, to: &bytes)
        }
        Self.raw(#"}},"result":\#(verdict.isAllowed)"#, to: &bytes)
        Self.member("gatekeeper", verdict.gatekeeper, to: &bytes)
        if let reason = verdict.reason {
            Self.member("reason", reason, to: &bytes)
        }
        if let rule = verdict.rule {
            Self.member("rule", "\(rule.source):\(rule.line)", to: &bytes)
        }
        Self.raw(#","shadow":\#(record.isShadow),"failed":\#(verdict.outcome == .failed)"#, to: &bytes)
        if record.isDropped { Self.raw(#","shadow_dropped":true"#, to: &bytes) }
        if !erased.isEmpty {
            Self.raw(#","erased":["#, to: &bytes)
            for (index, key) in erased.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.string("/input/attributes/" + Self.pointerToken(key), to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        Self.raw("}\n", to: &bytes)
    }

    /// Appends the line reporting `count` decisions dropped by a full queue.
    static func appendDropReport(count: Int, capacity: Int, at instant: Date, to bytes: inout [UInt8]) {
        raw(#"{"dropped":\#(count),"timestamp":""#, to: &bytes)
        Timestamp.append(instant, to: &bytes)
        raw(#"","message":"#, to: &bytes)
        string(
            "\(count) decision\(count == 1 ? " was" : "s were") not logged: the queue (capacity \(capacity)) was full",
            to: &bytes)
        raw("}\n", to: &bytes)
    }

    /// A JSON Pointer reference token (RFC 6901): `~` as `~0`, then `/` as `~1`.
    static func pointerToken(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Appends `,"name":` and `value` as a JSON string.
    private static func member(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        raw(#","\#(name)":"#, to: &bytes)
        string(value, to: &bytes)
    }

    /// Appends text that needs no escaping.
    private static func raw(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `text` as a JSON string, with the package's one writer (``JSONString``).
    static func string(_ text: String, to bytes: inout [UInt8]) {
        JSONString.write(text, to: &bytes)
    }
}
