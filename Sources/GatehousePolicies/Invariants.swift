import Foundation
import GatehouseCore

/// Promises that no version of a rules file may break, read from an invariants file: one
/// `never SUBJECT ACTION RESOURCE [except SUBJECT...]` a line, `#` starting a comment line.
///
/// ```
/// # nobody but the auditors ever reads a secret
/// never  *  read  secrets/*  except  auditor
/// never  *  *     keys/*
/// ```
/// Each line means that no request it matches may ever be allowed, whatever its attributes and
/// instant. ``FilePolicy`` and ``RulesPolicy`` check every version of their rules against it,
/// symbolically (see docs/invariants.md): a version that breaks one is invalid.
public struct Invariants: Sendable {
    /// The file's name as used in messages, such as `guard.invariants`.
    public let name: String
    /// The invariants, in file order.
    package let lines: [Invariant]

    /// How many invariants there are.
    public var count: Int { lines.count }

    /// Parses invariants from text named `name` (in messages, `name:line`).
    ///
    /// - Throws: ``RulesFileError`` naming `name` and listing every malformed line.
    public init(text: String, name: String) throws(RulesFileError) {
        try self.init(bytes: Array(text.utf8), name: name)
    }

    /// Reads and parses the invariants file at `url`, at most `maximumFileSize` bytes.
    ///
    /// - Throws: ``RulesFileError`` when the file cannot be read or has a malformed line.
    public init(contentsOf url: URL, maximumFileSize: Int = 1 << 20) throws(RulesFileError) {
        let path = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? url.path
        let data: Data
        do {
            data = try BoundedRead.contents(
                ofFile: path, limit: maximumFileSize, expected: "an invariants file")
        } catch {
            throw RulesFileError(error, file: url.lastPathComponent)
        }
        try self.init(bytes: Array(data), name: url.lastPathComponent)
    }

    private init(bytes: [UInt8], name: String) throws(RulesFileError) {
        self.name = name
        var lines: [Invariant] = []
        var problems: [RulesFileError.Issue] = []
        var sawComment = false
        do {
            let lineProblems = try RulesLexer.forEachLine(of: bytes, fileName: name) { line in
                if line.fields[0] == "#" {
                    sawComment = true
                    return
                }
                do throws(RuleSyntaxError) {
                    lines.append(try Invariant(line.fields, line: line.number))
                } catch {
                    problems.append(.init(line: line.number, kind: .malformed, message: error.message))
                }
            }
            problems += lineProblems
        } catch let error as RulesFileError {
            throw error
        } catch {
            throw RulesFileError(file: name, kind: .malformed, message: describe(error))
        }
        if lines.isEmpty && !sawComment && problems.isEmpty {
            throw RulesFileError(
                file: name, kind: .incomplete,
                message: "holds no invariant and no comment; a file meant to hold none says so with a "
                    + "comment line")
        }
        guard problems.isEmpty else { throw RulesFileError(file: name, problems: problems) }
        self.lines = lines
    }
}

/// One line of an invariants file: no request it matches may be allowed.
package struct Invariant: Sendable, Hashable {
    /// `*` (any subject, and none), an exact subject, or a pattern with `*`.
    package var subject: String
    /// The action pattern.
    package var action: String
    /// The resource pattern (no placeholders).
    package var resource: String
    /// Exact subjects the invariant does not speak for.
    package var except: [String]
    /// The 1-based line.
    package var line: Int

    /// The line as written, fields separated by one space.
    package var text: String {
        "never \(subject) \(action) \(resource)"
            + (except.isEmpty ? "" : " except " + except.joined(separator: " "))
    }

    /// Whether the invariant forbids `request` (its subject, action and resource).
    package func forbids(_ request: AccessRequest) -> Bool {
        guard forbids(subject: request.subject) else { return false }
        return AccessPlan.Pattern.matches(action, request.action.rawValue, stars: true)
            && AccessPlan.Pattern.matches(resource, request.resource)
    }

    /// Whether the invariant speaks for `subject` (`nil`: no subject).
    package func forbids(subject candidate: String?) -> Bool {
        guard let candidate else { return subject == "*" }
        return AccessPlan.Pattern.matches(subject, candidate)
            && !except.contains { AccessPlan.Pattern.sameBytes($0, candidate) }
    }

    init(_ fields: [String], line: Int) throws(RuleSyntaxError) {
        guard fields[0] == "never" else {
            throw RuleSyntaxError(
                "unknown keyword \"\(fields[0])\"; expected never SUBJECT ACTION RESOURCE [except SUBJECT...]"
            )
        }
        guard fields.count >= 4 else {
            throw RuleSyntaxError(
                "expected 4 fields (never subject action resource), found \(fields.count)")
        }
        if fields.count > 4 {
            guard fields[4] == "except" else {
                throw RuleSyntaxError(
                    "expected \"except\" and subjects after the resource; found \"\(fields[4])\" as field 5")
            }
            guard fields.count > 5 else {
                throw RuleSyntaxError("\"except\" with no subject; write the subjects after it")
            }
        }
        for (index, field) in fields[1..<4].enumerated() {
            let what = ["subject", "action", "resource"][index]
            if field.utf8.contains(where: {
                $0 == AccessPlan.Pattern.openBrace || $0 == AccessPlan.Pattern.closeBrace
            }) {
                throw RuleSyntaxError(
                    "the \(what) \"\(field)\" holds a brace; an invariant has no placeholders, since it "
                        + "speaks for every value")
            }
        }
        if fields[1].utf8.first == UInt8(ascii: "@") {
            throw RuleSyntaxError(
                "the subject \"\(fields[1])\" names a group; groups live in the rules file an edit "
                    + "may change, so an invariant names subjects (exact, * or a pattern)")
        }
        let except = fields.count > 5 ? Array(fields[5...]) : []
        for name in except
        where name.utf8.contains(where: {
            $0 == AccessPlan.Pattern.star || $0 == UInt8(ascii: "@") || $0 == AccessPlan.Pattern.openBrace
                || $0 == AccessPlan.Pattern.closeBrace
        }) {
            throw RuleSyntaxError(
                "the exception \"\(name)\" is not an exact subject; write subjects without *, @ or braces")
        }
        subject = fields[1]
        action = fields[2]
        resource = fields[3]
        self.except = except
        self.line = line
    }
}
