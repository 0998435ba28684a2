import Foundation
import GatehouseCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A gatekeeper that decides by a rules file, re-checked at every decision.
///
/// Rules, one a line, fields separated by blanks; `#` starts a comment line:
/// ```
/// # effect  subject  action  resource
/// allow     alice    read    avatars/alice/*
/// allow     *        read    public/*
/// deny      *        *       avatars/*/private-*
/// ```
/// `subject`, `action` and `resource` are patterns as in ``AllowList``; the subject `*` also
/// matches a request without a subject. Any matching `deny` wins; otherwise any matching `allow`
/// allows; otherwise the request is denied. A denial names the deciding line
/// (`"avatars.rules:3 denies"`) or says `"no rule in avatars.rules allows"`.
///
/// Every decision looks at the file's identity (one `stat`: device, inode, size, type and
/// permission bits, modification and status-change times in nanoseconds) and parses the file
/// again only when that changed, so the decision right after a writer renames a new version
/// into place uses the new rules. Each decision uses one parsed version from start to end.
///
/// When the file is missing, unreadable, not a regular file, larger than
/// `maximumFileSize`, not UTF-8, malformed or incomplete (empty, which is what a file being
/// rewritten in place looks like, or without a required `end` line), every decision throws a
/// ``RulesFileError``
/// naming the file (and line), so the proxy denies with a gate failure. There is no fallback to
/// an earlier version.
public struct FilePolicy: AccessPolicy, SynchronousAccessPolicy {
    /// The rules file.
    public let url: URL
    /// The name shown in denials and audit records, `"file"` unless given.
    public let name: String
    /// The largest file, in bytes, the policy reads; a larger file is an error.
    public let maximumFileSize: Int
    /// Whether the file must end with an `end` line; a version without one is
    /// ``RulesFileError/Kind/incomplete`` and every decision fails until it is whole.
    ///
    /// Require it when the file may be rewritten in place (truncated, then written), by an
    /// editor or a script: a decision can then read a version that is only partly written, and
    /// a partial version lacks its last line. A writer that replaces the file atomically (writes
    /// a temporary file, then renames it over this one) never shows a partial version.
    public let requireEnd: Bool

    private let path: String
    /// `path` as a NUL-terminated C string, converted once (a decision stats it every time).
    private let cPath: [CChar]
    private let fileName: String
    private let state: LockedState<LoadState>

    /// Creates a policy that decides by the rules file at `url`; the file is first read at the
    /// first decision.
    ///
    /// - Parameters:
    ///   - url: The rules file.
    ///   - name: The name shown in denials and audit records.
    ///   - maximumFileSize: The largest file, in bytes, the policy reads.
    ///   - requireEnd: Whether the file must end with an `end` line (see ``requireEnd``).
    public init(url: URL, name: String = "file", maximumFileSize: Int = 64 << 20, requireEnd: Bool = false) {
        self.url = url
        self.name = name
        self.maximumFileSize = maximumFileSize
        self.requireEnd = requireEnd
        self.path = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? url.path
        self.fileName = url.lastPathComponent
        self.cPath = Array(path.utf8CString)
        self.state = LockedState(LoadState(fileName: fileName))
    }

    /// Decides by the current version of the file.
    ///
    /// - Throws: ``RulesFileError`` when the file cannot be used.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try decide(request)
    }

    /// The decision of `evaluate(_:)`; the proxy's synchronous path.
    ///
    /// - Throws: ``RulesFileError`` when the file cannot be used.
    package func decide(_ request: AccessRequest) throws -> AccessDecision {
        let rules = try currentRules()
        switch rules.decide(request) {
        case .some(let verdict) where verdict.effect == .allow:
            return .allow
        case .some(let verdict):
            return .deny(reason: "\(fileName):\(verdict.line) denies")
        case .none:
            return .deny(reason: "no rule in \(fileName) allows")
        }
    }

    /// The rule that decides `request` in the current version of the file, or `nil` when no
    /// rule matches.
    package func decidingRule(for request: AccessRequest) throws -> RulesFile.Verdict? {
        try currentRules().decide(request)
    }

    /// How many times the file has been read and parsed; for tests of the reload rule.
    package var loadCount: Int {
        state.withLock { $0.loadCount }
    }

    /// The parsed rules of the file's current version, loading them if the file changed.
    package func currentRules() throws -> RulesFile {
        var status = stat()
        guard cPath.withUnsafeBufferPointer({ stat($0.baseAddress!, &status) }) == 0 else {
            throw FileSnapshot.cannotRead(fileName, Errno(code: errno))
        }
        let identity = FileIdentity(status)
        return try state.withLock { state in
            // The common case compares the identity and takes one reference out, nothing more.
            if state.identity != identity {
                // Loading under the lock: a change is parsed once, and concurrent decisions wait
                // for it rather than each parsing their own copy.
                state.loadCount += 1
                let loaded = load(expecting: identity)
                state.identity = loaded.identity
                state.version = loaded.rules
            }
            return try state.version.get()
        }
    }

    private func load(expecting identity: FileIdentity) -> Loaded {
        guard identity.isRegularFile else {
            let error = RulesFileError(
                file: fileName, kind: .notRegularFile,
                message: "is a \(identity.typeName), not a regular file; expected a rules file")
            return Loaded(identity: identity, rules: .failure(error))
        }
        do {
            try FileSnapshot.checkSize(identity.size, name: fileName, limit: maximumFileSize)
            let snapshot = try FileSnapshot.read(path: path, name: fileName, limit: maximumFileSize)
            do {
                let rules = try RulesFile.parse(snapshot.bytes, fileName: fileName, requireEnd: requireEnd)
                return Loaded(identity: snapshot.identity, rules: .success(rules))
            } catch {
                return Loaded(identity: snapshot.identity, rules: .failure(rulesFileError(error)))
            }
        } catch {
            return Loaded(identity: identity, rules: .failure(rulesFileError(error)))
        }
    }

    private func rulesFileError(_ error: any Error) -> RulesFileError {
        (error as? RulesFileError)
            ?? RulesFileError(file: fileName, kind: .cannotRead, message: "cannot read: \(describe(error))")
    }
}

/// One loaded version of the file: its identity and its rules, or why it cannot be used.
private struct Loaded {
    var identity: FileIdentity
    var rules: Result<RulesFile, RulesFileError>
}

/// What a ``FilePolicy`` shares between decisions: the version last loaded, as its identity
/// and either its rules or why it cannot be used. Before the first load `identity` is `nil`, so
/// the first decision loads; until then `version` says the file was not read yet.
private struct LoadState {
    var identity: FileIdentity?
    var version: Result<RulesFile, RulesFileError>
    var loadCount = 0

    init(fileName: String) {
        version = .failure(RulesFileError(file: fileName, kind: .cannotRead, message: "not read yet"))
    }
}
