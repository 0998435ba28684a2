import Foundation
import GatehouseCore
import GatehousePolicies

/// The rules-file parser on arbitrary bytes, checked against a plain reference reading of the
/// documented format: the same bytes are accepted or refused (with the same first bad line and
/// kind), and every accepted file decides a handful of requests exactly as a linear scan does.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzRules(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let bytes = input.rest()
    let reference = ReferenceRules(bytes)
    if reference.usesGroupsPlaceholdersOrConditions {
        // Groups, placeholders and conditions are compared with a reference model by the
        // package's tests (RulesReferenceTests); here they must only never crash,
        // hang or throw anything but a RulesFileError.
        do {
            let rules = try RulesFile.parse(bytes, fileName: "fuzz.rules")
            for request in ReferenceRules.requestsWithAttributes {
                _ = rules.decide(request)
            }
        } catch is RulesFileError {
        } catch {
            require(false, "RulesFile.parse threw \(type(of: error)): \(error)")
        }
        return 0
    }
    let rules: RulesFile
    do {
        rules = try RulesFile.parse(bytes, fileName: "fuzz.rules")
    } catch let error as RulesFileError {
        guard let expected = reference.failure else {
            require(false, "refused a file the reference accepts: \(error)")
            return 0
        }
        // Every problem is reported, in line order; the reference stops at the one it meets first.
        let listed = error.problems.contains { $0.line == expected.line && $0.kind == expected.kind }
        require(
            (listed || error.unlistedProblemCount > 0) && error.file == "fuzz.rules",
            "refused with \(error), the reference says line \(String(describing: expected.line)) \(expected.kind)"
        )
        return 0
    } catch {
        require(false, "RulesFile.parse threw \(type(of: error)): \(error)")
        return 0
    }
    require(reference.failure == nil, "accepted a file the reference refuses: \(reference.failure!)")
    require(
        rules.ruleCount == reference.rules.count, "ruleCount \(rules.ruleCount) != \(reference.rules.count)")
    for request in reference.requests() {
        let verdict = rules.decide(request)
        let expected = reference.decide(request)
        require(
            verdict == expected,
            "\(request): decided \(String(describing: verdict)), expected \(String(describing: expected))")
    }
    return 0
}

/// The format as docs/policies.md states it, read the slow and obvious way.
private struct ReferenceRules {
    struct Rule {
        var effect: RulesFile.Effect
        var subject: [UInt8]
        var action: [UInt8]
        var resource: [UInt8]
        var line: Int
    }

    var rules: [Rule] = []
    var failure: (line: Int?, kind: RulesFileError.Kind)?
    /// Whether a line before the first failure uses groups, placeholders or conditions (a `group`
    /// line, an `@group` subject, a brace, or `if` after the resource): then this reference, which
    /// reads plain rules only, says nothing about the file.
    var usesGroupsPlaceholdersOrConditions = false

    /// Requests with subjects, attributes and odd values for files with groups, placeholders or
    /// conditions.
    static let requestsWithAttributes = [
        AccessRequest(subject: nil, action: "read", resource: "docs/a"),
        AccessRequest(
            subject: "alice", action: "write", resource: "users/alice/x", attributes: ["owner": "alice"]),
        AccessRequest(subject: "a*", action: "read", resource: "tenants/a*/x", attributes: ["tenant": "a/b"]),
        AccessRequest(subject: "", action: "*", resource: "", attributes: ["device": "unmanaged", "": ""]),
    ]

    init(_ bytes: [UInt8]) {
        // UTF-16 and UTF-32 are named as such, for the whole file: a byte-order mark of either,
        // or a NUL byte beside the first character (RFC 8259's rule; UTF-8 text has none there).
        let head = Array(bytes.prefix(4))
        let wideMarks: [[UInt8]] = [[0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00, 0xFE, 0xFF]]
        if wideMarks.contains(where: { head.starts(with: $0) })
            || (head.count >= 2 && (head[0] == 0) != (head[1] == 0))
            || (head.count == 4 && head[0] == 0 && head[1] == 0 && head[2] == 0 && head[3] != 0)
        {
            failure = (nil, .notUTF8)
            return
        }
        // A leading byte-order mark is dropped.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // A final newline ends the last line; it does not start another.
        if text.last == UInt8(ascii: "\n") { lines.removeLast() }
        // First pass: every line is UTF-8 and holds no forbidden character.
        for (index, line) in lines.enumerated() {
            guard let decoded = String(validating: line, as: UTF8.self) else {
                failure = (index + 1, .notUTF8)
                return
            }
            let scalars = Array(decoded.unicodeScalars)
            for (offset, scalar) in scalars.enumerated() where Self.isForbidden(scalar) {
                if scalar == "\r" && offset == scalars.count - 1 { continue }
                failure = (index + 1, .malformed)
                return
            }
        }
        // Second pass: the structure of each line, on the text in NFC.
        let normalized = String(decoding: text, as: UTF8.self)._nfcCodeUnits
        var normalizedLines = normalized.split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if normalized.last == UInt8(ascii: "\n") { normalizedLines.removeLast() }
        var sawComment = false
        var endLine: Int?
        for (index, line) in normalizedLines.enumerated() {
            let number = index + 1
            let fields = line.split(whereSeparator: Self.isBlank).map(Array.init)
            if fields.isEmpty { continue }
            if fields[0].first == UInt8(ascii: "#") {
                sawComment = true
                continue
            }
            let braces: Set<UInt8> = [UInt8(ascii: "{"), UInt8(ascii: "}")]
            if fields[0] == Array("group".utf8) || (fields.count > 1 && fields[1].first == UInt8(ascii: "@"))
                || (fields.count > 4 && fields[4] == Array("if".utf8))
                || fields.contains(where: { $0.contains(where: braces.contains) })
            {
                usesGroupsPlaceholdersOrConditions = true
                return
            }
            if fields.count == 1 && fields[0] == Array("end".utf8) {
                guard endLine == nil else {
                    failure = (number, .malformed)
                    return
                }
                endLine = number
                continue
            }
            guard endLine == nil, fields.count == 4 else {
                failure = (number, .malformed)
                return
            }
            let effect: RulesFile.Effect
            switch fields[0] {
            case Array("allow".utf8): effect = .allow
            case Array("deny".utf8): effect = .deny
            default:
                failure = (number, .malformed)
                return
            }
            rules.append(
                Rule(effect: effect, subject: fields[1], action: fields[2], resource: fields[3], line: number)
            )
        }
        if rules.isEmpty && !sawComment && endLine == nil {
            failure = (nil, .incomplete)
        }
    }

    /// Space and tab separate fields; a carriage return may only end a line.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    /// Control characters but tab, Unicode spaces and invisible separators, bidirectional
    /// controls, invisible characters and look-alikes of `*`, as docs/security.md lists them.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x09 || value == 0x20 { return false }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if scalar.properties.isWhitespace { return true }
        // Invisible: default-ignorable, format (Cf), or one of the five blanks.
        if scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .format
            || [0x2800, 0x1D159, 0x16FE4, 0x13441, 0x13442].contains(value)
        {
            return true
        }
        // Look-alikes of `*`: a non-letter, non-number named ASTERISK(S), ASTERISM or STAR(S),
        // and U+2055, U+273E-U+2748, U+1031F.
        if value == 0x2055 || value == 0x1031F || (0x273E...0x2748).contains(value) { return true }
        let category = "\(scalar.properties.generalCategory)"
        if value > 0x7F, !category.hasSuffix("Letter"), !category.hasSuffix("Number"),
            !["unassigned", "privateUse", "surrogate"].contains(category),
            let name = scalar.properties.name,
            name.split(whereSeparator: { $0 == " " || $0 == "-" }).contains(where: {
                ["ASTERISK", "ASTERISKS", "ASTERISM", "STAR", "STARS"].contains($0)
            })
        {
            return true
        }
        let others: Set<UInt32> = [
            0x180E, 0x200B, 0x2060, 0xFEFF,
            0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
            0x066D, 0x204E, 0x2217, 0x2731, 0x2732, 0x2733, 0xFE61, 0xFF0A,
        ]
        return others.contains(value)
    }

    /// The first matching deny, else the first matching allow, else nothing.
    func decide(_ request: AccessRequest) -> RulesFile.Verdict? {
        let matching = rules.filter { rule in
            let subject =
                request.subject.map { globMatch(rule.subject, Array($0.utf8)) } ?? (rule.subject == [0x2A])
            return subject && globMatch(rule.action, Array(request.action.rawValue.utf8))
                && globMatch(rule.resource, Array(request.resource.utf8))
        }
        if let rule = matching.first(where: { $0.effect == .deny }) {
            return .init(effect: .deny, line: rule.line)
        }
        if let rule = matching.first(where: { $0.effect == .allow }) {
            return .init(effect: .allow, line: rule.line)
        }
        return nil
    }

    /// Requests made from the file's own patterns (each `*` filled in two ways), so that they
    /// match some rules and miss others.
    func requests() -> [AccessRequest] {
        func texts(_ pattern: [UInt8]) -> [String] {
            let text = String(decoding: pattern, as: UTF8.self)
            return [text.replacingStars(with: ""), text.replacingStars(with: "x/y")]
        }
        var requests = [
            AccessRequest(subject: nil, action: "read", resource: "avatars/alice/a.png"),
            AccessRequest(subject: "alice", action: "read", resource: ""),
        ]
        for (index, rule) in rules.prefix(4).enumerated() {
            let other = rules[(index + 1) % rules.count]
            for (subject, resource) in zip(texts(rule.subject), texts(other.resource)) {
                requests.append(
                    AccessRequest(subject: subject, action: texts(rule.action)[0], resource: resource))
            }
            requests.append(
                AccessRequest(subject: nil, action: texts(other.action)[1], resource: texts(rule.resource)[0])
            )
        }
        return requests
    }
}

extension String {
    fileprivate func replacingStars(with filler: String) -> String {
        split(separator: "*", omittingEmptySubsequences: false).joined(separator: filler)
    }
}

/// `*` matches any run of bytes (`/` too, the empty run too); every other byte matches itself.
private func globMatch(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
    var row = [Bool](repeating: false, count: text.count + 1)
    row[0] = true
    for byte in pattern {
        var next = [Bool](repeating: false, count: text.count + 1)
        for j in 0...text.count {
            if byte == UInt8(ascii: "*") {
                next[j] = row[j] || (j > 0 && next[j - 1])
            } else {
                next[j] = j > 0 && row[j - 1] && text[j - 1] == byte
            }
        }
        row = next
    }
    return row[text.count]
}
