import Foundation
import GatehouseCore

/// A decorator, and an anti-pattern, for `avatar-picker --hide-denials`: it wraps the proxy,
/// conforms to the same protocol, and changes how a denial reaches the caller: it catches the
/// proxy's `AccessDenied` and returns empty image data, which looks like a successful load. A
/// permission failure must stay an error the caller can see and explain.
struct EmptyDataOnDenial<Base: ResourceLoading>: ResourceLoading where Base.Resource == Data {
    /// The proxy whose denials are hidden.
    let base: Base

    /// Loads through `base`, turning a denial into empty data.
    func load(_ key: Base.Key) async throws -> Data {
        do {
            return try await base.load(key)
        } catch is AccessDenied {
            return Data()
        }
    }
}
