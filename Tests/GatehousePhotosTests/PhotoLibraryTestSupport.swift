#if !canImport(Photos)
    import Foundation
    import GatehouseCore
    import GatehousePhotos
    import PhotosShim

    /// Loader settings the tests use unless they test the settings.
    let onDevice = PhotoThumbnailSettings(allowsNetworkAccess: false)

    /// A small library: two photos on the device, one only in iCloud, one that fails to load,
    /// one that comes back empty.
    func library(
        _ status: PHAuthorizationStatus, sharing shared: Set<String> = []
    ) -> PhotoLibrarySimulation {
        PhotoLibrarySimulation(
            status: status,
            assets: [
                "IMG_0001": .data(Data("a cat".utf8)),
                "IMG_0002": .data(Data("a beach".utf8)),
                "IMG_0003": .inICloud(Data("a kite".utf8)),
                "IMG_0004": .failure("the file is damaged"),
                "IMG_0005": .data(Data()),
            ],
            shared: shared)
    }

    /// Runs `body` with `library` as the photo library PhotoKit's declarations read.
    @discardableResult
    func with<Result>(
        _ library: PhotoLibrarySimulation, _ body: () async throws -> Result
    ) async throws -> Result {
        try await PhotoLibrarySimulation.$current.withValue(library, operation: body)
    }

    /// The decision of ``PhotoLibraryPolicy`` on reading `assetID`.
    func decision(on assetID: String) async throws -> AccessDecision {
        try await PhotoLibraryPolicy().evaluate(AccessRequest(resource: assetID))
    }

    /// The reason of a denial; `nil` for an allow.
    func reason(_ decision: AccessDecision) -> String? {
        if case .deny(let reason) = decision { return reason }
        return nil
    }

    /// The statuses that deny every asset.
    let denyingStatuses: [PHAuthorizationStatus] = [.notDetermined, .denied, .restricted]
#endif
