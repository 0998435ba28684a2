import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// The gate's contract from the lesson (the DocC article `ProxyVersusDecorator` in GatehouseCore),
/// through the public API only, for both kinds of gate a proxy can hold: a built-in gate, which
/// decides without suspending, and a gate of your own that suspends while it decides. Each call
/// uses its own key where it can, so a loader call can only be explained by that call.
///
/// - each granted call adds exactly one loader call, with the exact key;
/// - each denied call adds none, and throws ``AccessDenied``;
/// - access revoked between two calls of the same key is refused on the second call: the proxy
///   remembers no grant (a decision cache on either path makes these tests fail).
@Suite("The gate contract through a built-in gate and a suspending gate")
struct LessonGateContractTests {
    @Test(arguments: GateKind.allCases)
    func eachGrantedCallReachesTheLoaderOnceWithItsExactKey(_ kind: GateKind) async throws {
        let gate = try kind.make()
        defer { gate.discard() }
        let loader = KeyRecordingLoader()
        let proxy = AccessProxy(loader, gatekeepers: [gate.policy])
        try gate.allow([("alice", "docs/a.txt"), ("alice", "docs/b.txt"), ("bob", "docs/c.txt")])

        for (subject, key) in [("alice", "docs/a.txt"), ("bob", "docs/c.txt"), ("alice", "docs/b.txt")] {
            let before = loader.receivedKeys
            let data = try await load(key, as: subject, through: proxy)
            #expect(data == KeyRecordingLoader.contents(of: key), "the loader's resource, unchanged")
            #expect(loader.receivedKeys == before + [key], "one loader call, with the exact key \(key)")
        }
    }

    @Test(arguments: GateKind.allCases)
    func eachDeniedCallLeavesTheLoaderUntouched(_ kind: GateKind) async throws {
        let gate = try kind.make()
        defer { gate.discard() }
        let loader = KeyRecordingLoader()
        let proxy = AccessProxy(loader, gatekeepers: [gate.policy])
        try gate.allow([("alice", "docs/a.txt")])

        // A granted call first, so that a proxy remembering "allowed" for a key, a subject or
        // the whole chain would let one of the denied calls below through.
        _ = try await load("docs/a.txt", as: "alice", through: proxy)
        let denied: [(subject: String?, key: String)] = [
            ("bob", "docs/a.txt"),  // the same key, another subject
            ("alice", "docs/b.txt"),  // the same subject, another key
            (nil, "docs/a.txt"),  // no subject at all
        ]
        for (subject, key) in denied {
            await #expect(throws: AccessDenied.self, "\(subject ?? "no subject") may not read \(key)") {
                try await load(key, as: subject, through: proxy)
            }
            #expect(loader.receivedKeys == ["docs/a.txt"], "a denied call reached the loader")
        }
    }

    @Test(arguments: GateKind.allCases)
    func revokingAccessBetweenTwoCallsOfTheSameKeyIsHonored(_ kind: GateKind) async throws {
        let gate = try kind.make()
        defer { gate.discard() }
        let loader = KeyRecordingLoader()
        let proxy = AccessProxy(loader, gatekeepers: [gate.policy])
        try gate.allow([("alice", "docs/salaries.csv")])

        _ = try await load("docs/salaries.csv", as: "alice", through: proxy)
        #expect(loader.receivedKeys == ["docs/salaries.csv"])

        try gate.allow([])
        await #expect(throws: AccessDenied.self, "the grant of the first call was remembered") {
            try await load("docs/salaries.csv", as: "alice", through: proxy)
        }
        #expect(loader.receivedKeys == ["docs/salaries.csv"], "the revoked call reached the loader")

        try gate.allow([("alice", "docs/salaries.csv")])
        _ = try await load("docs/salaries.csv", as: "alice", through: proxy)
        #expect(loader.receivedKeys == ["docs/salaries.csv", "docs/salaries.csv"])
    }

    @Test func anAllowListForwardsExactlyTheAllowedCallsInOrder() async throws {
        let loader = KeyRecordingLoader()
        let proxy = AccessProxy(
            loader, gatekeepers: [try AllowList(resources: ["public/*"], subjects: ["alice"])])
        let calls: [(subject: String?, key: String, allowed: Bool)] = [
            ("alice", "public/a.png", true),
            ("bob", "public/a.png", false),
            ("alice", "private/salaries.csv", false),
            (nil, "public/b.png", false),
            ("alice", "public/b.png", true),
        ]
        for call in calls {
            let before = loader.receivedKeys
            if call.allowed {
                _ = try await load(call.key, as: call.subject, through: proxy)
                #expect(loader.receivedKeys == before + [call.key])
            } else {
                await #expect(throws: AccessDenied.self) {
                    try await load(call.key, as: call.subject, through: proxy)
                }
                #expect(loader.receivedKeys == before)
            }
        }
        #expect(loader.receivedKeys == ["public/a.png", "public/b.png"])
    }

    @Test func theSuspendingGateReallyDecidesAsynchronously() async throws {
        let gate = SuspendingGrantPolicy()
        gate.allow([("alice", "docs/a.txt")])
        let proxy = AccessProxy(KeyRecordingLoader(), gatekeepers: [gate])
        _ = try await load("docs/a.txt", as: "alice", through: proxy)
        #expect(gate.suspensions == 1, "the gate suspended once while it decided")
    }
}

/// Loads `key` through `proxy` as `subject` (no subject when `nil`).
private func load(_ key: String, as subject: String?, through proxy: some ResourceLoading<String, Data>)
    async throws -> Data
{
    try await AccessContext.$current.withValue(AccessContext(subject: subject)) {
        try await proxy.load(key)
    }
}

/// The two ways a proxy asks a gate.
enum GateKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `FilePolicy`, a built-in gate that decides without suspending, over a rules file that is
    /// replaced (atomically) whenever the grants change.
    case builtInFilePolicy
    /// A gate of our own whose `evaluate` suspends (`await Task.yield()`) before it decides.
    case suspendingCustomPolicy

    var testDescription: String { rawValue }

    /// A fresh gate of this kind that allows nothing yet.
    func make() throws -> any ChangeableGate {
        switch self {
        case .builtInFilePolicy: try RulesFileGate()
        case .suspendingCustomPolicy: SuspendingGrantPolicy()
        }
    }
}

/// A gate whose grants a test changes between calls.
protocol ChangeableGate: Sendable {
    /// The policy to put in a proxy.
    var policy: any AccessPolicy { get }
    /// From now on, allows exactly these reads: (subject, resource) pairs; everything else is
    /// denied.
    func allow(_ grants: [(subject: String, resource: String)]) throws
    /// Removes whatever the gate keeps on disk.
    func discard()
}

/// `FilePolicy` over a rules file in a temporary folder, one `allow` line per grant.
struct RulesFileGate: ChangeableGate {
    let directory: TemporaryDirectory
    let file: URL
    let policy: any AccessPolicy

    init() throws {
        directory = try TemporaryDirectory()
        file = directory.file("lesson.rules")
        policy = FilePolicy(url: file, name: "rules")
        try allow([])
    }

    func allow(_ grants: [(subject: String, resource: String)]) throws {
        // A file with no rules says so in a comment: an empty file is what a half-done rewrite
        // looks like, and fails every decision.
        let lines =
            ["# effect subject action resource"] + grants.map { "allow \($0.subject) read \($0.resource)" }
        // Written to a temporary file, then renamed over the rules file, as writers must.
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file, options: .atomic)
    }

    func discard() {
        directory.cleanUp()
    }
}

/// A gate of our own that allows the granted (subject, resource) reads and suspends before every
/// decision, as a gate that asks a service or the system would.
final class SuspendingGrantPolicy: AccessPolicy, ChangeableGate {
    let name = "grants"
    private let state = LockedState((grants: Set<String>(), suspensions: 0))

    var policy: any AccessPolicy { self }

    /// How often a decision suspended.
    var suspensions: Int { state.withLock { $0.suspensions } }

    func allow(_ grants: [(subject: String, resource: String)]) {
        state.withLock { $0.grants = Set(grants.map { "\($0.subject) \($0.resource)" }) }
    }

    func discard() {}

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        state.withLock { $0.suspensions += 1 }
        await Task.yield()
        let granted = state.withLock { state in
            request.subject.map { state.grants.contains("\($0) \(request.resource)") } ?? false
        }
        return granted
            ? .allow : .deny(reason: "\(request.subject ?? "no subject") may not read \(request.resource)")
    }
}

/// The real loader of these tests: answers any key with bytes made from it and records every
/// key it is asked for.
final class KeyRecordingLoader: ResourceLoading, Sendable {
    private let keys = LockedState<[String]>([])

    /// The resource this loader returns for `key`.
    static func contents(of key: String) -> Data { Data("contents of \(key)".utf8) }

    func load(_ key: String) async throws -> Data {
        keys.withLock { $0.append(key) }
        return Self.contents(of: key)
    }

    /// Every key asked for, in order.
    var receivedKeys: [String] { keys.withLock { $0 } }
}
