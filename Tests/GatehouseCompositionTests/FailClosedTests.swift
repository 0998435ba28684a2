import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every fault, injected into a working assembled service (fault gate → rules file → cache →
/// disk loader), either denies with a reason that names it and without reaching the loader, or
/// surfaces the loader's own error unchanged; none lets a call through that should not pass, and
/// none is served from the warm cache.
@Suite("Fail closed")
struct FailClosedTests {
    /// What a fault must lead to.
    enum Expected: Sendable {
        /// An ``AccessDenied`` from `policy`, whose reason contains every one of `reason`.
        case denied(policy: String, failed: Bool, reason: [String])
        /// The loader's own error, unchanged: the call was allowed and reached the loader once.
        case loaderError(String)
        /// `CancellationError`, without reaching the loader.
        case cancelled
    }

    /// One fault: how to inject it into a working lab, which key to load then, what must happen.
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        var key = Lab.warmKey
        var inject: @Sendable (Lab) throws -> Void
        var expected: Expected

        var testDescription: String { name }
    }

    static let isRoot = geteuid() == 0

    static let faults: [Fault] = [
        Fault(
            name: "rules file truncated mid-rule",
            inject: { try $0.truncateRules(to: 16) },
            expected: .denied(
                policy: "file", failed: true,
                reason: ["avatars.rules:1:", "expected 4 fields (effect subject action resource), found 3"])),
        Fault(
            name: "rules file truncated to nothing",
            inject: { try $0.truncateRules(to: 0) },
            expected: .denied(
                policy: "file", failed: true,
                reason: [
                    "avatars.rules: is empty (0 bytes), which is what a file being rewritten in place looks like"
                ])
        ),
        Fault(
            name: "rules file replaced by a directory",
            inject: {
                try $0.replaceRules {
                    try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false)
                }
            },
            expected: .denied(
                policy: "file", failed: true,
                reason: ["avatars.rules: is a directory, not a regular file"])),
        Fault(
            name: "rules file replaced by a fifo",
            inject: { try $0.replaceRules { try check(mkfifo($0, 0o600), "mkfifo") } },
            expected: .denied(
                policy: "file", failed: true, reason: ["avatars.rules: is a pipe, not a regular file"])),
        // chmod does not stop root, so as root the file is made unreadable by a link to itself.
        isRoot
            ? Fault(
                name: "rules file made unreadable (as root: a symbolic link loop)",
                inject: { try $0.replaceRules { try check(symlink("avatars.rules", $0), "symlink") } },
                expected: .denied(
                    policy: "file", failed: true,
                    reason: ["avatars.rules: cannot read: Too many levels of symbolic links"]))
            : Fault(
                name: "rules file made unreadable (chmod 000)",
                inject: { try check(chmod($0.rulesPath, 0), "chmod") },
                expected: .denied(
                    policy: "file", failed: true,
                    reason: ["avatars.rules: cannot read: Permission denied"])),
        Fault(
            name: "rules file deleted",
            inject: { try FileManager.default.removeItem(atPath: $0.rulesPath) },
            expected: .denied(
                policy: "file", failed: true,
                reason: ["avatars.rules: cannot read: No such file or directory"])),
        Fault(
            name: "rules file deleted mid-load, by the gate before it",
            inject: { $0.faults.arm(.deleteRules) },
            expected: .denied(
                policy: "file", failed: true,
                reason: ["avatars.rules: cannot read: No such file or directory"])),
        Fault(
            name: "rules file malformed",
            inject: { try $0.writeRules("allow alice read avatars/*\npermit alice read avatars/*\n") },
            expected: .denied(
                policy: "file", failed: true,
                reason: ["avatars.rules:2:", "unknown effect \"permit\"; expected allow, deny or group"])),
        Fault(
            name: "rules file not UTF-8",
            inject: { try $0.writeRules(Data([0x61, 0x6C, 0x6C, 0x6F, 0x77, 0x20, 0xFF, 0x0A])) },
            expected: .denied(policy: "file", failed: true, reason: ["avatars.rules:1: not valid UTF-8"])
        ),
        Fault(
            name: "rules file oversize",
            inject: { try $0.truncateRules(to: (64 << 20) + 1) },
            expected: .denied(
                policy: "file", failed: true,
                reason: ["avatars.rules: is 67108865 bytes, larger than the limit of 67108864 bytes"])),
        Fault(
            name: "access revoked by the rules",
            inject: { try $0.writeRules("deny alice read avatars/*\n") },
            expected: .denied(policy: "file", failed: false, reason: ["avatars.rules:1 denies"])),
        Fault(
            name: "gate throws",
            inject: { $0.faults.arm(.throwFromGate) },
            expected: .denied(
                policy: "faults", failed: true, reason: ["the policy store is unreachable"])),
        Fault(
            name: "task cancelled mid-chain",
            key: Lab.coldKey,
            inject: { $0.faults.arm(.cancelInGate) },
            expected: .cancelled),
        Fault(
            name: "task cancelled before the call",
            key: Lab.coldKey,
            inject: { $0.faults.arm(.cancelBeforeCall) },
            expected: .cancelled),
        Fault(
            name: "disk loader root removed",
            key: Lab.coldKey,
            inject: { try FileManager.default.removeItem(atPath: $0.assetsPath) },
            expected: .loaderError("is unavailable (No such file or directory)")),
        Fault(
            name: "loader throws",
            key: Lab.coldKey,
            inject: { $0.faults.arm(.throwFromLoader) },
            expected: .loaderError("the disk is on fire")),
    ]

    @Test(arguments: faults)
    func everyFaultFailsClosed(_ fault: Fault) async throws {
        let lab = try Lab()
        defer { lab.cleanUp() }
        // Before the fault the service works, and the cache now holds the warm key.
        #expect(try await lab.load(Lab.warmKey) == .loaded(Data("alice\n".utf8)))
        let callsBefore = lab.loader.calls
        let recordsBefore = lab.observer.records.count

        try fault.inject(lab)
        let outcome = try await lab.load(fault.key)
        let records = Array(lab.observer.records.dropFirst(recordsBefore))

        switch fault.expected {
        case .denied(let policy, let failed, let reason):
            guard case .denied(let denied) = outcome else {
                Issue.record("expected a denial by \(policy), got \(outcome)")
                return
            }
            #expect(denied.gatekeeper == policy)
            #expect(denied.isFailure == failed)
            for part in reason {
                #expect(denied.reason.contains(part), "\(denied.reason)")
            }
            #expect(lab.loader.calls == callsBefore, "the loader was called after a denial")
            #expect(records.count == 1 && records.first?.verdict.decision == .deny(reason: denied.reason))
            #expect((records.first?.verdict.outcome == .failed) == failed)
        case .loaderError(let text):
            guard case .failed(let error) = outcome else {
                Issue.record("expected the loader's error, got \(outcome)")
                return
            }
            #expect(describe(error).contains(text), "\(describe(error))")
            #expect(!(error is AccessDenied))
            #expect(lab.loader.calls == callsBefore + 1)
            #expect(records.count == 1 && records.first?.verdict.decision == .allow)
        case .cancelled:
            #expect(outcome == .cancelled)
            #expect(lab.loader.calls == callsBefore, "the loader was called for a cancelled call")
            #expect(!records.contains { $0.verdict.isAllowed })
        }
    }

    @Test func theLoadersOwnErrorsPassThroughUnchanged() async throws {
        let lab = try Lab()
        defer { lab.cleanUp() }
        lab.faults.arm(.throwFromLoader)
        guard case .failed(let error) = try await lab.load(Lab.coldKey) else {
            Issue.record("the load did not fail")
            return
        }
        #expect(error as? DiskOnFire == DiskOnFire())
        try FileManager.default.removeItem(atPath: lab.assetsPath)
        lab.faults.arm(nil)
        guard case .failed(let diskError) = try await lab.load(Lab.coldKey),
            case .rootUnavailable(let root, _) = diskError as? DiskLoaderError
        else {
            Issue.record("the disk loader's error did not come through")
            return
        }
        #expect(root.hasSuffix("/assets"))
    }

    @Test func everyFaultIsListedOnce() {
        #expect(Set(Self.faults.map(\.name)).count == Self.faults.count)
    }
}

/// How one load ended.
enum LoadOutcome: Equatable, CustomStringConvertible {
    case loaded(Data)
    case denied(AccessDenied)
    case cancelled
    case failed(any Error)

    static func == (lhs: LoadOutcome, rhs: LoadOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.loaded(let a), .loaded(let b)): a == b
        case (.cancelled, .cancelled): true
        default: false
        }
    }

    var description: String {
        switch self {
        case .loaded(let data): "loaded \(data.count) bytes"
        case .denied(let denied): "\(denied)"
        case .cancelled: "cancelled"
        case .failed(let error): "failed: \(describe(error))"
        }
    }
}

/// The error the faulty loader throws.
struct DiskOnFire: Error, Equatable, LocalizedError {
    var errorDescription: String? { "the disk is on fire" }
}

/// The error the faulty gate throws.
struct PolicyStoreDown: Error, LocalizedError {
    var errorDescription: String? { "the policy store is unreachable" }
}

/// The faults a lab can arm in its gate, its loader or its caller.
final class FaultSwitch: @unchecked Sendable {
    enum Mode {
        case throwFromGate
        case cancelInGate
        case deleteRules
        case throwFromLoader
        case cancelBeforeCall
    }

    private let lock = NSLock()
    private var armed: Mode?

    func arm(_ mode: Mode?) { lock.withLock { armed = mode } }
    var mode: Mode? { lock.withLock { armed } }
}

/// A working service built from configuration, with places to inject faults:
///
/// ```
/// faults = anyOf(fault, alwaysAllow) → file avatars.rules → cache → faulty(disk assets)
/// ```
/// The `anyOf` also shows that a later member cannot paper over one that threw.
final class Lab: Sendable {
    static let warmKey = "avatars/alice.txt"
    static let coldKey = "avatars/alice-2.txt"

    let folder: TemporaryDirectory
    let faults = FaultSwitch()
    let loader: FaultyLoader
    let observer = RecordingObserver()
    let service: ConfiguredService

    var rulesPath: String { folder.url.appendingPathComponent("avatars.rules").path }
    var assetsPath: String { folder.url.appendingPathComponent("assets").path }

    init() throws {
        folder = try TemporaryDirectory()
        try folder.write("allow alice read avatars/*\n", to: "avatars.rules")
        try folder.write("alice\n", to: "assets/avatars/alice.txt")
        try folder.write("alice, again\n", to: "assets/avatars/alice-2.txt")
        let configuration = try folder.write(
            """
            { "services": { "avatars": {
                "loader": { "type": "faulty", "root": "assets" },
                "cache": { "countLimit": 10 },
                "gatekeepers": [
                  { "type": "anyOf", "name": "faults",
                    "policies": [ { "type": "fault" }, { "type": "alwaysAllow" } ] },
                  { "type": "file", "path": "avatars.rules" }
                ] } } }
            """, to: "gatehouse.json")
        let faults = faults
        let rules = folder.url.appendingPathComponent("avatars.rules").path
        let loader = LockedBox<FaultyLoader?>(nil)
        var registry = PluginRegistry()
        try registry.registerGatekeeper("fault", settings: NoSettings.self) { _, _ in
            FaultGate(faults: faults, rulesPath: rules)
        }
        try registry.registerLoader("faulty", settings: RootSettings.self) { settings, context in
            let built = FaultyLoader(base: DiskLoader(root: context.resolve(settings.root)), faults: faults)
            loader.value = built
            return built
        }
        service = try #require(
            try Assembler(registry: registry, observer: observer).assemble(contentsOf: configuration)[
                "avatars"])
        self.loader = try #require(loader.value)
    }

    func cleanUp() {
        folder.cleanUp()
    }

    /// Loads `key` as alice, in a task of its own (so that cancelling it cancels only this load).
    func load(_ key: String) async throws -> LoadOutcome {
        let service = service
        let cancelFirst = faults.mode == .cancelBeforeCall
        return await Task {
            if cancelFirst { withUnsafeCurrentTask { $0?.cancel() } }
            do {
                return try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                    .loaded(try await service.load(key))
                }
            } catch let denied as AccessDenied {
                return .denied(denied)
            } catch is CancellationError {
                return .cancelled
            } catch {
                return .failed(error)
            }
        }.value
    }

    /// Writes the rules file atomically (a temporary file renamed over it).
    func writeRules(_ text: String) throws {
        try writeRules(Data(text.utf8))
    }

    func writeRules(_ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: rulesPath), options: .atomic)
    }

    /// Sets the rules file's size in place: shorter cuts it, longer extends it with a hole.
    func truncateRules(to size: Int) throws {
        try check(truncate(rulesPath, off_t(size)), "truncate")
    }

    /// Removes the rules file and makes something else at its path.
    func replaceRules(with make: (String) throws -> Void) throws {
        try FileManager.default.removeItem(atPath: rulesPath)
        try make(rulesPath)
    }
}

/// The gate the lab arms: allows, unless armed to throw, to cancel its task, or to delete the
/// rules file (then it allows, and the file gate after it finds no file).
struct FaultGate: AccessPolicy {
    let name = "fault"
    let faults: FaultSwitch
    let rulesPath: String

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        switch faults.mode {
        case .throwFromGate:
            throw PolicyStoreDown()
        case .cancelInGate:
            withUnsafeCurrentTask { $0?.cancel() }
        case .deleteRules:
            try FileManager.default.removeItem(atPath: rulesPath)
        default:
            break
        }
        return .allow
    }
}

/// A disk loader that counts its calls and can be armed to throw instead.
final class FaultyLoader: ResourceLoading, @unchecked Sendable {
    let base: DiskLoader
    let faults: FaultSwitch
    private let lock = NSLock()
    private var count = 0

    init(base: DiskLoader, faults: FaultSwitch) {
        self.base = base
        self.faults = faults
    }

    func load(_ key: String) async throws -> Data {
        lock.withLock { count += 1 }
        if faults.mode == .throwFromLoader { throw DiskOnFire() }
        return try await base.load(key)
    }

    var calls: Int { lock.withLock { count } }
}

struct NoSettings: Decodable, Sendable {}

struct RootSettings: Decodable, Sendable {
    var root: String
}

/// A value set inside a plugin factory and read after assembly.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Throws when a system call returned -1, naming the call and its error.
func check(_ result: Int32, _ call: String) throws {
    guard result == 0 else { throw SystemCallFailed(call: call, text: String(cString: strerror(errno))) }
}

/// A system call used to inject a fault failed.
struct SystemCallFailed: Error, LocalizedError {
    var call: String
    var text: String
    var errorDescription: String? { "\(call) failed: \(text)" }
}
