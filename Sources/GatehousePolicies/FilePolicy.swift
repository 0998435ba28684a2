import Foundation
import GatehouseCore

/// A gatekeeper that decides by a rules file, re-checked at every decision.
///
/// ```
/// # effect  subject  action  resource
/// allow     alice    read    avatars/alice/*
/// deny      *        *       avatars/*/private-*
/// ```
/// Any matching `deny` wins, then any matching `allow`; otherwise the request is denied. Each
/// decision `stat`s the file and parses it again when it changed. While the file cannot be used,
/// every decision throws a ``RulesFileError`` (so the proxy denies), unless
/// ``WhenInvalid/keepLastGood``. Format, reload and failures: see docs/policies.md.
public struct FilePolicy: AccessPolicy {
    /// What decisions do while the file's current version cannot be used.
    public enum WhenInvalid: Sendable, Hashable {
        /// Every decision fails (the proxy denies, naming the file and line). The default.
        case deny
        /// While the current version's *contents* are bad, the last version that parsed decides,
        /// and its reasons say so. A missing or unreadable file still fails every decision and
        /// forgets that version, so a file deleted on purpose is never brought back.
        case keepLastGood
    }

    /// The rules file.
    public let url: URL
    /// The name shown in denials and audit records, `"file"` unless given.
    public let name: String
    /// The largest file, in bytes, the policy reads; a larger file is an error.
    public let maximumFileSize: Int
    /// Whether the file must end with an `end` line, so that a version rewritten in place is never
    /// used while partly written.
    public let requireEnd: Bool
    /// What decisions do while the current version cannot be used; `.deny` unless given.
    public let whenInvalid: WhenInvalid
    /// The attribute names requests carry, or `nil`. When declared, a version naming another is
    /// invalid, so a misspelt name never silently matches nothing.
    public let attributes: [String]?
    /// The invariants every version must keep, or `nil`. A version that allows a request one of them
    /// forbids is invalid, as a malformed one is: ``whenInvalid`` applies. See docs/invariants.md.
    public let invariants: Invariants?

    let path: String
    /// Converted once: every decision stats it.
    private let cPath: [CChar]
    let fileName: String
    private let state: LockedState<LoadState>

    /// Creates a policy that decides by the rules file at `url`, first read at the first decision;
    /// with `invariants`, a version that breaks one is invalid.
    public init(
        url: URL, name: String = "file", maximumFileSize: Int = 64 << 20, requireEnd: Bool = false,
        whenInvalid: WhenInvalid = .deny, attributes: [String]? = nil, invariants: Invariants? = nil
    ) {
        self.url = url
        self.name = name
        self.maximumFileSize = maximumFileSize
        self.requireEnd = requireEnd
        self.whenInvalid = whenInvalid
        self.attributes = attributes
        self.invariants = invariants
        self.path = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? url.path
        self.fileName = url.lastPathComponent
        self.cPath = Array(path.utf8CString)
        self.state = LockedState(LoadState(fileName: fileName))
    }

    /// Decides by the current version of the file; throws a ``RulesFileError`` while it cannot be used.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        let explanation = try currentExplanation(request)
        guard let note = explanation.note, case .deny(let reason) = explanation.decision else {
            return explanation.decision
        }
        return .deny(reason: "\(reason) (\(note))")
    }

    /// ``evaluate(_:)``'s decision with the deciding rule (`file:line`), and a note when the last
    /// good version decided; throws as ``evaluate(_:)`` does.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        try currentExplanation(request)
    }

    /// The rules of the version decisions use now, planned for the request as
    /// ``RulesPolicy/plan(_:)`` plans; throws as ``evaluate(_:)`` does.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        try currentRules().plan(request, gatekeeper: name)
    }

    private func currentExplanation(_ request: AccessRequest) throws -> AccessExplanation {
        let version = try currentVersion()
        var explanation = version.rules.explanation(for: request)
        if let invalid = version.invalidCurrent {
            explanation.note = Self.lastGoodNote(invalid)
        }
        return explanation
    }

    static func lastGoodNote(_ error: RulesFileError) -> String {
        "by the last good version; the current one is invalid: \(error.errorDescription ?? error.message)"
    }

    /// The rule that decides `request` in the version decisions use now, if any.
    package func decidingRule(for request: AccessRequest) throws -> RulesFile.Verdict? {
        try currentRules().decide(request)
    }

    /// The current version's error while the last good version decides; otherwise `nil`.
    public var invalidCurrentVersion: RulesFileError? {
        (try? currentVersion())?.invalidCurrent
    }

    /// How many times the file has been read and parsed; for tests of the reload rule.
    package var loadCount: Int {
        state.withLock { $0.loadCount }
    }

    /// The rules decisions use now, loading the file if it changed.
    package func currentRules() throws -> RulesFile {
        try currentVersion().rules
    }

    private func currentVersion() throws -> Version {
        let identity: FileIdentity
        do {
            identity = try FileIdentity(path: cPath)
        } catch {
            let error = RulesFileError(error, file: fileName)
            // Gone or unreachable: nothing to keep, and whatever comes next is loaded afresh.
            state.withLock { state in
                state.identity = nil
                state.settle(.failure(error), keepingLastGood: whenInvalid == .keepLastGood)
            }
            throw error
        }
        return try state.withLock { state in
            if state.identity != identity {
                // Under the lock: a change is parsed once, and concurrent decisions wait for it.
                state.loadCount += 1
                let loaded = load(expecting: identity)
                state.identity = loaded.identity
                state.settle(loaded.rules, keepingLastGood: whenInvalid == .keepLastGood)
            }
            return try state.version.get()
        }
    }

    /// The version at the path: its identity and its rules, or why it cannot be used.
    private func load(expecting identity: FileIdentity)
        -> (identity: FileIdentity, rules: Result<RulesFile, RulesFileError>)
    {
        guard identity.isRegularFile else {
            return (
                identity,
                .failure(RulesFileError(identity.notRegularFile(expected: "a rules file"), file: fileName))
            )
        }
        let snapshot: FileSnapshot
        do {
            snapshot = try readFile()
        } catch {
            return (identity, .failure(error))
        }
        let rules = Result {
            try checked(
                RulesFile.parse(
                    snapshot.bytes, fileName: fileName, requireEnd: requireEnd, attributes: attributes))
        }
        return (snapshot.identity, rules.mapError(rulesFileError))
    }

    /// `rules`, unless they break one of ``invariants``.
    func checked(_ rules: RulesFile) throws(RulesFileError) -> RulesFile {
        guard let invariants else { return rules }
        let breaches = rules.breaches(of: invariants)
        guard breaches.isEmpty else { throw rules.invariantError(breaches, invariants: invariants.name) }
        return rules
    }

    /// The file's current version, read once within ``maximumFileSize``.
    func readFile() throws(RulesFileError) -> FileSnapshot {
        do {
            return try FileSnapshot.read(path: path, limit: maximumFileSize, expected: "a rules file")
        } catch {
            throw RulesFileError(error, file: fileName)
        }
    }

    private func rulesFileError(_ error: any Error) -> RulesFileError {
        (error as? RulesFileError)
            ?? RulesFileError(file: fileName, kind: .cannotRead, message: "cannot read: \(describe(error))")
    }
}

/// The rules decisions use and, when they are the last good version, the current version's error.
private typealias Version = (rules: RulesFile, invalidCurrent: RulesFileError?)

/// What a ``FilePolicy``'s decisions share: the identity last loaded and the version for it.
private struct LoadState {
    var identity: FileIdentity?
    var version: Result<Version, RulesFileError>
    /// Kept only for ``FilePolicy/WhenInvalid/keepLastGood``.
    var lastGood: RulesFile?
    var loadCount = 0

    init(fileName: String) {
        version = .failure(RulesFileError(file: fileName, kind: .cannotRead, message: "not read yet"))
    }

    mutating func settle(_ loaded: Result<RulesFile, RulesFileError>, keepingLastGood: Bool) {
        switch loaded {
        case .success(let rules):
            version = .success((rules, nil))
            if keepingLastGood { lastGood = rules }
        case .failure(let error):
            if !error.kind.isAboutContents { lastGood = nil }
            if keepingLastGood, let lastGood {
                version = .success((lastGood, error))
            } else {
                version = .failure(error)
            }
        }
    }
}

extension FilePolicy {
    /// The rules of the version decisions use now that nearly allowed a denied request; see
    /// `AccessVerdict/nearMisses`.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        try currentRules().nearMisses(for: request)
    }
}
