import Foundation
import GatehouseCore

// Photos on Apple platforms; PhotosShim, the same declarations, where there is no Photos.
// watchOS has no PhotoKit: the module is empty there.
#if canImport(Photos)
    import Photos
#elseif !os(watchOS)
    import PhotosShim
#endif

#if !os(watchOS)
    /// Loads a photo's image data by its `PHAsset` local identifier, through
    /// `PHImageManager.requestImageDataAndOrientation`.
    ///
    /// It knows nothing about permission: put ``PhotoLibraryPolicy`` in front of it
    /// (`PhotoThumbnailLoader(settings: ...).guarded(by: PhotoLibraryPolicy())`). It never answers
    /// with empty data; every failure is a ``PhotoThumbnailError``. Cancelling the task cancels the
    /// image request (`cancelImageRequest`) and throws ``PhotoThumbnailError/cancelled(assetID:)``.
    public struct PhotoThumbnailLoader: ResourceLoading {
        /// How Photos is asked for each image.
        public let settings: PhotoThumbnailSettings

        /// Creates the loader.
        public init(settings: PhotoThumbnailSettings) {
            self.settings = settings
        }

        /// The image data of the asset `assetID`.
        ///
        /// - Throws: ``PhotoThumbnailError``.
        public func load(_ assetID: String) async throws -> Data {
            let request = ImageRequest()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    request.start(assetID: assetID, continuation: continuation, settings: settings)
                }
            } onCancel: {
                request.cancel()
            }
        }
    }

    /// One image request's life: started, then answered by Photos or cancelled, whichever comes
    /// first; the continuation is resumed exactly once.
    private final class ImageRequest: Sendable {
        private struct State {
            var assetID = ""
            var continuation: CheckedContinuation<Data, any Error>?
            var requestID: PHImageRequestID?
            var cancelled = false
        }

        private let state = LockedState(State())

        func start(
            assetID: String, continuation: CheckedContinuation<Data, any Error>,
            settings: PhotoThumbnailSettings
        ) {
            let cancelledAlready = state.withLock { state in
                state.assetID = assetID
                state.continuation = continuation
                return state.cancelled
            }
            guard !cancelledAlready else {
                finish(.failure(PhotoThumbnailError.cancelled(assetID: assetID)))
                return
            }
            guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [assetID], options: nil).firstObject
            else {
                finish(.failure(PhotoThumbnailError.assetNotFound(assetID: assetID)))
                return
            }
            let options = PHImageRequestOptions()
            options.version = settings.rendition.version
            options.deliveryMode = settings.delivery.deliveryMode
            options.isNetworkAccessAllowed = settings.allowsNetworkAccess
            let requestID = PHImageManager.default().requestImageDataAndOrientation(
                for: asset, options: options
            ) {
                data, _, _, info in
                self.finish(Self.outcome(assetID: assetID, data: data, info: info))
            }
            let cancelledMeanwhile = state.withLock { state in
                state.requestID = requestID
                return state.cancelled
            }
            if cancelledMeanwhile {
                PHImageManager.default().cancelImageRequest(requestID)
            }
        }

        /// The task was cancelled: cancels the image request if it was made, and answers `cancelled`.
        func cancel() {
            let (requestID, assetID) = state.withLock { state in
                state.cancelled = true
                return (state.requestID, state.assetID)
            }
            if let requestID {
                PHImageManager.default().cancelImageRequest(requestID)
            }
            finish(.failure(PhotoThumbnailError.cancelled(assetID: assetID)))
        }

        /// Resumes the continuation with `result` unless it was resumed already.
        private func finish(_ result: Result<Data, any Error>) {
            let continuation = state.withLock { state in
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(with: result)
        }

        /// What Photos' answer means.
        private static func outcome(assetID: String, data: Data?, info: [AnyHashable: Any]?) -> Result<
            Data, any Error
        > {
            if (info?[PHImageCancelledKey] as? Bool) == true {
                return .failure(PhotoThumbnailError.cancelled(assetID: assetID))
            }
            if let error = info?[PHImageErrorKey] as? any Error {
                return .failure(
                    PhotoThumbnailError.downloadFailed(assetID: assetID, reason: error.localizedDescription))
            }
            if let data, !data.isEmpty {
                return .success(data)
            }
            if (info?[PHImageResultIsInCloudKey] as? Bool) == true {
                return .failure(
                    PhotoThumbnailError.downloadFailed(
                        assetID: assetID, reason: "it is in iCloud only, and network access is not allowed"))
            }
            return .failure(
                PhotoThumbnailError.downloadFailed(assetID: assetID, reason: "no image data came back"))
        }
    }

    extension PhotoThumbnailSettings.Rendition {
        /// PhotoKit's name for the rendition.
        fileprivate var version: PHImageRequestOptionsVersion {
            switch self {
            case .current: .current
            case .unadjusted: .unadjusted
            case .original: .original
            }
        }
    }

    extension PhotoThumbnailSettings.Delivery {
        /// PhotoKit's name for the delivery.
        fileprivate var deliveryMode: PHImageRequestOptionsDeliveryMode {
            switch self {
            case .highQuality: .highQualityFormat
            case .fast: .fastFormat
            }
        }
    }
#endif
