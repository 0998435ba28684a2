import Foundation
import GatehouseCore
import GatehousePolicies

/// The built-in attribute source `json`, `{"docs/plan.md": {"owner": "alice"}}`. Each decision
/// checks the file's identity (as a `file` gatekeeper checks its rules file) and reads and parses
/// it again only when it changed, within a size bound. The names it provides are the declared
/// `attributes`, or else every name the file gives any resource. A file that cannot be used
/// (missing, too large, malformed, holding an undeclared name) fails every decision, unless
/// `whenInvalid` keeps the last good version while the contents are bad.
struct JSONAttributeSource: AttributeSource {
    /// The path as the configuration writes it, for messages.
    let path: String
    /// The names declared by `"attributes"`, or `nil` for the file's own.
    let declared: Set<String>?
    /// The largest file, in bytes, the source reads.
    let maximumFileSize: Int
    /// What decisions use while the file's current version cannot be used.
    let whenInvalid: FilePolicy.WhenInvalid

    private let filePath: String
    /// Converted once: every decision stats it.
    private let cPath: [CChar]
    private let state = LockedState(LoadState())

    /// The default ``maximumFileSize``: 16 MiB.
    static let defaultMaximumFileSize = 16 << 20

    /// A source reading `url`, named `path` in messages.
    init(
        url: URL, path: String, declared: Set<String>? = nil, maximumFileSize: Int = defaultMaximumFileSize,
        whenInvalid: FilePolicy.WhenInvalid = .deny
    ) {
        self.path = path
        self.declared = declared
        self.maximumFileSize = maximumFileSize
        self.whenInvalid = whenInvalid
        self.filePath = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? url.path
        self.cPath = Array(filePath.utf8CString)
    }

    /// The declared names, or every name the current version gives any resource.
    func attributeNames() async throws -> ResourceAttributeNames {
        if let declared { return .only(declared) }
        return .only(try currentVersion().names)
    }

    /// The attributes the current version gives `resource`; none when it does not list it.
    func attributes(of resource: String) async throws -> [String: String] {
        try currentVersion().entries[resource] ?? [:]
    }

    /// How many times the file has been read and parsed; for tests of the reload rule.
    var loadCount: Int {
        state.withLock { $0.loadCount }
    }

    /// The version decisions use now, reading the file again when its identity changed.
    private func currentVersion() throws(AttributeSourceError) -> Version {
        let identity: FileIdentity
        do {
            identity = try FileIdentity(path: cPath)
        } catch {
            // Gone or unreachable: nothing to keep, and whatever comes next is loaded afresh.
            state.withLock { state in
                state.identity = nil
                state.lastGood = nil
                state.version = .failure(failure(error))
            }
            throw failure(error)
        }
        return try state.withLock { state in
            if state.identity != identity {
                // Under the lock: a change is parsed once, and concurrent decisions wait for it.
                state.loadCount += 1
                state.identity = identity
                state.settle(load(), keepingLastGood: whenInvalid == .keepLastGood)
            }
            return state.version
        }.get()
    }

    /// The version at the path, or why it cannot be used (`aboutContents` when a later, fixed
    /// version of the same file may replace it under `keepLastGood`).
    private func load() -> Result<Version, Invalid> {
        let snapshot: FileSnapshot
        do {
            snapshot = try FileSnapshot.read(
                path: filePath, limit: maximumFileSize, expected: "a JSON object of resources' attributes")
        } catch {
            let aboutContents = error.kind == .tooLarge || error.kind == .changedWhileReading
            return .failure(Invalid(error: failure(error), aboutContents: aboutContents))
        }
        return Result { () throws(AttributeSourceError) in try parse(snapshot.bytes) }
            .mapError { Invalid(error: $0, aboutContents: true) }
    }

    private func failure(_ error: FileReadError) -> AttributeSourceError {
        var message = "\(path): \(error.message)"
        if error.kind == .tooLarge { message += " (maximumFileSize)" }
        return AttributeSourceError(message: message)
    }

    /// Every resource's attributes in `bytes`, each an object of strings under declared names.
    private func parse(_ bytes: [UInt8]) throws(AttributeSourceError) -> Version {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw AttributeSourceError(
                message: "\(path):\(error.line):\(error.column): invalid JSON: \(error.message)")
        }
        guard case .object(let resources) = value else {
            throw AttributeSourceError(
                message:
                    "\(path): expected an object mapping resources to attributes, found \(value.kindDescription)"
            )
        }
        var version = Version()
        for (resource, entry) in resources.members {
            guard case .object(let members) = entry else {
                throw AttributeSourceError(
                    message:
                        "\(path): \"\(resource)\" must be an object of string attributes, found \(entry.kindDescription)"
                )
            }
            var attributes: [String: String] = [:]
            for member in members.members {
                guard case .string(let text) = member.value else {
                    throw AttributeSourceError(
                        message:
                            "\(path): \"\(resource)\".\(member.key) must be a string, found \(member.value.kindDescription)"
                    )
                }
                if let declared, !declared.contains(member.key) {
                    let names = declared.isEmpty ? "none" : declared.sorted().joined(separator: ", ")
                    throw AttributeSourceError(
                        message:
                            "\(path): \"\(resource)\".\(member.key) is not among the declared attributes "
                            + "(\(names)); add it to \"attributes\" or remove it from the file")
                }
                attributes[member.key] = text
                version.names.insert(member.key)
            }
            version.entries[resource] = attributes
        }
        return version
    }
}

/// One parsed version of the file.
private struct Version: Sendable {
    /// Every resource's attributes.
    var entries: [String: [String: String]] = [:]
    /// Every name some resource has.
    var names: Set<String> = []
}

/// A version that cannot be used, and whether its contents are the problem.
private struct Invalid: Error {
    let error: AttributeSourceError
    let aboutContents: Bool
}

/// What a ``JSONAttributeSource``'s decisions share: the identity last loaded and its version.
private struct LoadState: Sendable {
    var identity: FileIdentity?
    var version: Result<Version, AttributeSourceError> = .failure(
        AttributeSourceError(message: "not read yet"))
    /// Kept only for `keepLastGood`.
    var lastGood: Version?
    var loadCount = 0

    /// Takes `loaded` as the current version; under `keepingLastGood`, bad contents leave the
    /// last good version deciding, and a file that cannot be reached forgets it.
    mutating func settle(_ loaded: Result<Version, Invalid>, keepingLastGood: Bool) {
        switch loaded {
        case .success(let parsed):
            version = .success(parsed)
            if keepingLastGood { lastGood = parsed }
        case .failure(let invalid):
            if !invalid.aboutContents { lastGood = nil }
            if keepingLastGood, let lastGood {
                version = .success(lastGood)
            } else {
                version = .failure(invalid.error)
            }
        }
    }
}
