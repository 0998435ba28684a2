import Foundation
import GatehouseCore
import Testing

/// A storing, listing service over a dictionary that records every call it gets.
final class SpyStore: ResourceStoring, ResourceListing, @unchecked Sendable {
    enum Call: Equatable {
        case load(String)
        case store(String, String)
        case remove(String)
        case keys(String)
    }

    private let lock = NSLock()
    private var contents: [String: String]
    private var recorded: [Call] = []

    init(_ contents: [String: String] = [:]) {
        self.contents = contents
    }

    func load(_ key: String) async throws -> String {
        try lock.withLock {
            recorded.append(.load(key))
            guard let value = contents[key] else { throw SpyStoreMissing(key: key) }
            return value
        }
    }

    func store(_ resource: String, for key: String) async throws {
        lock.withLock {
            recorded.append(.store(key, resource))
            contents[key] = resource
        }
    }

    func remove(_ key: String) async throws {
        lock.withLock {
            recorded.append(.remove(key))
            contents[key] = nil
        }
    }

    func keys(under prefix: String) async throws -> [String] {
        lock.withLock {
            recorded.append(.keys(prefix))
            return contents.keys.filter { prefix.isEmpty || $0.hasPrefix(prefix + "/") }.sorted()
        }
    }

    var calls: [Call] { lock.withLock { recorded } }
    var stored: [String: String] { lock.withLock { contents } }
}

struct SpyStoreMissing: Error, Equatable {
    var key: String
}

/// A policy that answers with a closure of the request (which may throw), asynchronously.
struct ClosurePolicy: AccessPolicy {
    let name: String
    let decide: @Sendable (AccessRequest) throws -> AccessDecision

    init(_ name: String, _ decide: @escaping @Sendable (AccessRequest) throws -> AccessDecision) {
        self.name = name
        self.decide = decide
    }

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        await Task.yield()
        return try decide(request)
    }
}

/// The same as ``ClosurePolicy``, deciding without ever suspending, as the built-in policies do.
struct SynchronousClosurePolicy: AccessPolicy {
    let name: String
    let decision: @Sendable (AccessRequest) throws -> AccessDecision

    init(_ name: String, _ decision: @escaping @Sendable (AccessRequest) throws -> AccessDecision) {
        self.name = name
        self.decision = decision
    }

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try decision(request)
    }
}

/// Whether a proxy's gates suspend (an `await` inside) or not, for tests that must hold for
/// both kinds of gatekeeper.
enum GatePath: String, CaseIterable, CustomTestStringConvertible {
    case synchronous
    case asynchronous

    var testDescription: String { rawValue }

    /// A gate named `name` deciding with `decide` on this path.
    func gate(
        _ name: String, _ decide: @escaping @Sendable (AccessRequest) throws -> AccessDecision
    ) -> any AccessPolicy {
        switch self {
        case .synchronous: SynchronousClosurePolicy(name, decide)
        case .asynchronous: ClosurePolicy(name, decide)
        }
    }
}
