import Foundation
import GatehouseCore

/// The wrong order does not compile: a cache in front of a gate (an `AccessProxy`, or any
/// service whose `Gate` is `AccessGate`) would keep serving a resource after access to it was
/// revoked. `CachingLoader(AccessProxy(...), countLimit: 10)` fails with a message that says to
/// put the cache behind the gate: `AccessProxy(CachingLoader(loader, countLimit: 10), ...)`.
extension CachingLoader where Base.Gate == AccessGate {
    /// Unavailable: a cache stands behind the gate, never in front of it.
    @available(
        *, unavailable,
        message:
            "put the cache behind the gate, AccessProxy(CachingLoader(loader, ...), ...): a cache in front of it keeps serving after access is revoked"
    )
    public init(
        _ base: Base, countLimit: Int, costLimit: Int = .max,
        cost: @escaping @Sendable (Base.Resource) -> Int = { _ in 1 }
    ) {
        fatalError("unavailable")
    }

    /// Unavailable: a cache stands behind the gate, never in front of it.
    @available(
        *, unavailable,
        message:
            "put the cache behind the gate, AccessProxy(CachingLoader(loader, ...), ...): a cache in front of it keeps serving after access is revoked"
    )
    public init(_ base: Base, countLimit: Int, byteLimit: Int) where Base.Resource == Data {
        fatalError("unavailable")
    }
}
