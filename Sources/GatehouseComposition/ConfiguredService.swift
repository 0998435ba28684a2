import Foundation
import GatehouseCore

/// A service assembled from configuration: gate(s) → optional cache → loader, usable wherever an
/// `any ResourceLoading<String, Data>` is, and able to decide without loading (for `check`).
///
/// Shadow gatekeepers, if configured, are evaluated on every decision and reported to the
/// observer as records with `AccessRecord/isShadow` set; their outcome is never enforced.
public struct ConfiguredService: ResourceLoading {
    /// The service's name in the configuration.
    public let name: String
    /// The enforced chain: an `AccessProxy` in front of the (cached) loader.
    public let proxy: AccessProxy<AnyLoader>
    /// The shadow gatekeepers, reported and never enforced.
    public let shadow: [any AccessPolicy]
    /// The service as described for people, one line per part, nested combinators indented.
    public let explanation: [String]

    private let observer: (any AccessObserver)?
    private let clock: @Sendable () -> Date

    init(
        name: String, proxy: AccessProxy<AnyLoader>, shadow: [any AccessPolicy], explanation: [String],
        observer: (any AccessObserver)?, clock: @escaping @Sendable () -> Date
    ) {
        self.name = name
        self.proxy = proxy
        self.shadow = shadow
        self.explanation = explanation
        self.observer = observer
        self.clock = clock
    }

    /// Loads `key` for the current `AccessContext` with the action `"read"`.
    public func load(_ key: String) async throws -> Data {
        try await load(key, action: "read")
    }

    /// Loads `key` for the current `AccessContext` with the given action.
    ///
    /// - Throws: `AccessDenied`, `CancellationError`, or the loader's own error, unchanged.
    public func load(_ key: String, action: String) async throws -> Data {
        try await authorize(request(for: key, action: action))
        return try await proxy.base.load(key)
    }

    /// Decides `request` without loading anything: returns when every gate allows.
    ///
    /// - Throws: `AccessDenied` or `CancellationError`.
    public func authorize(_ request: AccessRequest) async throws {
        if let observer, !shadow.isEmpty { await evaluateShadow(request, observer: observer) }
        try await proxy.authorize(request)
    }

    /// The request for `key` in the current `AccessContext`.
    public func request(for key: String, action: String = "read") -> AccessRequest {
        var request = proxy.request(for: key)
        request.action = action
        return request
    }

    private func evaluateShadow(_ request: AccessRequest, observer: any AccessObserver) async {
        for gate in shadow {
            let record: AccessRecord
            do {
                let decision = try await gate.evaluate(request)
                record = AccessRecord(
                    request: request, decision: decision, gate: gate.name, instant: clock(), isShadow: true)
            } catch {
                record = AccessRecord(
                    request: request, decision: .deny(reason: describe(error)), gate: gate.name,
                    instant: clock(),
                    isGateFailure: true, isShadow: true)
            }
            observer.observe(record)
        }
    }
}

/// A loader of `Data` by `String` key behind a type-erased wall, so that an assembled chain of
/// any loader and cache has one type.
public struct AnyLoader: ResourceLoading {
    /// The wrapped loader.
    public let base: any ResourceLoading<String, Data>

    /// Wraps `base`.
    public init(_ base: any ResourceLoading<String, Data>) {
        self.base = base
    }

    /// Loads from the wrapped loader.
    public func load(_ key: String) async throws -> Data {
        try await base.load(key)
    }
}
