#if !canImport(Photos)
    import Foundation
    import GatehouseCore
    import GatehousePhotos
    import PhotosShim
    import Testing

    @Suite("PhotoThumbnailLoader: image data from PHImageManager", .timeLimit(.minutes(1)))
    struct PhotoThumbnailLoaderTests {
        @Test func loadsTheImageDataWithTheStatedSettings() async throws {
            let photos = library(.authorized)
            let settings = PhotoThumbnailSettings(
                rendition: .original, delivery: .fast, allowsNetworkAccess: true)
            let data = try await with(photos) {
                try await PhotoThumbnailLoader(settings: settings).load("IMG_0001")
            }
            #expect(data == Data("a cat".utf8))
            #expect(
                photos.imageRequests == [
                    .init(
                        id: 1, assetID: "IMG_0001", version: .original, deliveryMode: .fastFormat,
                        isNetworkAccessAllowed: true)
                ])
        }

        @Test func theDefaultsAreTheCurrentRenditionInHighQuality() async throws {
            let photos = library(.authorized)
            _ = try await with(photos) { try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0002") }
            let request = try #require(photos.imageRequests.first)
            #expect(request.version == .current)
            #expect(request.deliveryMode == .highQualityFormat)
            #expect(!request.isNetworkAccessAllowed)
        }

        @Test func aMissingAssetThrowsAssetNotFoundWithoutAnImageRequest() async throws {
            let photos = library(.authorized)
            try await with(photos) {
                await #expect(throws: PhotoThumbnailError.assetNotFound(assetID: "IMG_0009")) {
                    try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0009")
                }
            }
            #expect(photos.imageRequests.isEmpty)
        }

        @Test func aPhotoOnlyInICloudLoadsOnlyWhenNetworkAccessIsAllowed() async throws {
            let photos = library(.authorized)
            try await with(photos) {
                await #expect(
                    throws: PhotoThumbnailError.downloadFailed(
                        assetID: "IMG_0003", reason: "it is in iCloud only, and network access is not allowed"
                    )
                ) {
                    try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0003")
                }
                let allowed = PhotoThumbnailSettings(allowsNetworkAccess: true)
                let data = try await PhotoThumbnailLoader(settings: allowed).load("IMG_0003")
                #expect(data == Data("a kite".utf8))
            }
        }

        @Test func anErrorFromPhotosIsADownloadFailure() async throws {
            let photos = library(.authorized)
            try await with(photos) {
                await #expect(
                    throws: PhotoThumbnailError.downloadFailed(
                        assetID: "IMG_0004", reason: "the file is damaged")
                ) {
                    try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0004")
                }
            }
        }

        @Test func emptyDataIsAFailureNeverAnImage() async throws {
            let photos = library(.authorized)
            try await with(photos) {
                await #expect(
                    throws: PhotoThumbnailError.downloadFailed(
                        assetID: "IMG_0005", reason: "no image data came back")
                ) {
                    try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0005")
                }
            }
        }

        @Test func cancellingTheTaskCancelsTheImageRequest() async throws {
            let photos = library(.authorized)
            photos.add("IMG_0006", .pending)  // a slow iCloud download
            try await with(photos) {
                let load = Task { try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0006") }
                var started = photos.startedRequests.makeAsyncIterator()
                let requestID = try #require(await started.next())
                load.cancel()
                await #expect(throws: PhotoThumbnailError.cancelled(assetID: "IMG_0006")) {
                    try await load.value
                }
                #expect(photos.cancellations == [requestID])
            }
        }

        @Test func aTaskCancelledBeforeTheLoadMakesNoImageRequest() async throws {
            let photos = library(.authorized)
            try await with(photos) {
                let load = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0001")
                }
                await #expect(throws: PhotoThumbnailError.cancelled(assetID: "IMG_0001")) {
                    try await load.value
                }
            }
            #expect(photos.imageRequests.isEmpty)
        }

        @Test func aRequestCompletedLaterDeliversItsData() async throws {
            let photos = library(.authorized)
            photos.add("IMG_0006", .pending)
            try await with(photos) {
                let load = Task { try await PhotoThumbnailLoader(settings: onDevice).load("IMG_0006") }
                var started = photos.startedRequests.makeAsyncIterator()
                let requestID = try #require(await started.next())
                photos.complete(requestID, with: .data(Data("downloaded".utf8)))
                let data = try await load.value
                #expect(data == Data("downloaded".utf8))
                #expect(photos.cancellations.isEmpty)
            }
        }
    }
#endif
