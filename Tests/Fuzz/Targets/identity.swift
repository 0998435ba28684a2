import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

/// Arbitrary keys through `AccessProxy` over a `MemoryLoader` (a `Dictionary`, which treats
/// canonically equivalent keys as one) guarded by a block list, on the synchronous path (built-in
/// gates only) and the asynchronous one (a recording gate in front).
///
/// - The loader is reached only with a key that is exactly the resource the gates saw, and that
///   keeps the identity rule, checked here the slow and obvious way: NFC, no control character,
///   no leading `/`, no empty, `.` or `..` component.
/// - `ResourceIdentity.path` refuses exactly the keys the reference refuses.
/// - No key, however spelled, returns a secret the block list guards.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzIdentity(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    // The first byte may start the key with a spelling the fuzzer would hardly find alone.
    let selector = Int(input.byte())
    let prefix = selector < prefixes.count * 4 ? prefixes[selector % prefixes.count] : ""
    let key = prefix + String(decoding: input.rest(), as: UTF8.self)
    let reference = referenceViolation(key)
    require(
        (ResourceIdentity.path.violation(in: key) == nil) == (reference == nil),
        "ResourceIdentity and the reference disagree on \(key.debugDescription) (reference: \(reference ?? "valid"))"
    )
    for proxy in [identityFixture.synchronous, identityFixture.asynchronous] {
        identityFixture.seen.reset()
        let outcome = blocking { () -> String? in try? await proxy.load(key) }
        let reached = identityFixture.seen.loaderKeys
        require(reached.count <= 1, "the loader was called \(reached.count) times")
        if let loaded = reached.first {
            require(loaded.utf8.elementsEqual(key.utf8), "the loader got another key than the one asked")
            require(reference == nil, "\(key.debugDescription) reached the loader but breaks: \(reference!)")
            let gates = identityFixture.seen.gateResources
            require(
                gates.isEmpty || gates.allSatisfy { $0.utf8.elementsEqual(loaded.utf8) },
                "the gates saw another resource than the loader")
        }
        require(outcome == nil || !secrets.contains(outcome!), "\(key.debugDescription) returned a secret")
    }
    return 0
}

private let prefixes = [
    "Keys/", "\u{212A}eys/", "docs/café/", "docs/cafe\u{0301}/", "public/", "public/../", "./", "/",
    "\u{2126}/", "A\u{030A}/", "\u{1100}\u{1161}/",
]
private let secrets: Set<String> = ["the master key", "the plan"]

/// The identity rule of docs/security.md, the slow way; `nil` for a key that keeps it.
private func referenceViolation(_ key: String) -> String? {
    if key.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
        return "control character"
    }
    // The runtime's NFC, the one `==` compares by (Foundation's tables are older).
    if !key.utf8.elementsEqual(key._nfcCodeUnits) {
        return "not NFC"
    }
    // Bytes, not `String` comparisons: those see "/" plus a combining mark as one character.
    let bytes = Array(key.utf8)
    if bytes.isEmpty { return "empty" }
    if bytes[0] == UInt8(ascii: "/") { return "leading slash" }
    for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
        if component.isEmpty || component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
            return "empty, . or .. component"
        }
    }
    return nil
}

/// What the gates and the loader saw during one load.
private final class Sightings: @unchecked Sendable {
    private let lock = NSLock()
    private var loader: [String] = []
    private var gates: [String] = []

    func reset() {
        lock.withLock {
            loader = []
            gates = []
        }
    }
    func sawAtLoader(_ key: String) { lock.withLock { loader.append(key) } }
    func sawAtGate(_ resource: String) { lock.withLock { gates.append(resource) } }
    var loaderKeys: [String] { lock.withLock { loader } }
    var gateResources: [String] { lock.withLock { gates } }
}

/// A loader that reports its key, then loads from a `MemoryLoader`.
private struct SpyingLoader: ResourceLoading {
    let base: MemoryLoader<String, String>
    let seen: Sightings
    func load(_ key: String) async throws -> String {
        seen.sawAtLoader(key)
        return try await base.load(key)
    }
}

/// An asynchronous gate that allows and reports the resource it saw.
private struct RecordingGate: AccessPolicy {
    let seen: Sightings
    var name: String { "recording" }
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        seen.sawAtGate(request.resource)
        return .allow
    }
}

private struct IdentityFixture: Sendable {
    let seen = Sightings()
    let synchronous: AccessProxy<SpyingLoader>
    let asynchronous: AccessProxy<SpyingLoader>

    init() {
        let store = MemoryLoader<String, String>([
            "Keys/master": "the master key", "docs/café/plan": "the plan", "public/a": "public",
        ])
        let loader = SpyingLoader(base: store, seen: seen)
        let blockList = Not(try! AllowList(resources: ["Keys/*", "docs/café/*"]), name: "block")
        synchronous = loader.guarded(by: blockList)
        asynchronous = loader.guarded(by: RecordingGate(seen: seen), blockList)
    }
}

private let identityFixture = IdentityFixture()
