import Foundation
import GatehouseCore

/// The anti-pattern the article warns against, for `avatar-picker --hide-denials`: it catches
/// the proxy's denial and returns empty image data, which looks like a successful load.
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
