#if !canImport(Photos)
    import Foundation
    import GatehouseCore
    import GatehousePhotos
    import GatehouseTestSupport
    import PhotosShim
    import Testing

    /// The article's four checks, on the shipped gate and loader through `AccessProxy`.
    @Suite("PhotoLibraryPolicy in front of a loader: the article's four checks")
    struct GuardedThumbnailTests {
        @Test(arguments: denyingStatuses)
        func aDeniedCallNeverCallsTheLoader(_ status: PHAuthorizationStatus) async throws {
            let loader = SpyLoader()
            let thumbnails = loader.guarded(by: PhotoLibraryPolicy())
            try await with(library(status)) {
                await #expect(throws: AccessDenied.self) { try await thumbnails.load("IMG_0001") }
            }
            #expect(loader.calls == 0)
        }

        @Test func aCallForAnAssetNotSharedUnderLimitedAccessNeverCallsTheLoader() async throws {
            let loader = SpyLoader()
            let thumbnails = AccessProxy(loader, gatekeepers: [PhotoLibraryPolicy()])
            try await with(library(.limited, sharing: ["IMG_0002"])) {
                await #expect(throws: AccessDenied.self) { try await thumbnails.load("IMG_0001") }
            }
            #expect(loader.calls == 0)
        }

        @Test(arguments: denyingStatuses)
        func aDeniedCallNeverReachesPHImageManager(_ status: PHAuthorizationStatus) async throws {
            let photos = library(status)
            let thumbnails = PhotoThumbnailLoader(settings: onDevice).guarded(by: PhotoLibraryPolicy())
            try await with(photos) {
                await #expect(throws: AccessDenied.self) { try await thumbnails.load("IMG_0001") }
            }
            #expect(photos.imageRequests.isEmpty)
            #expect(photos.fetches.isEmpty)
            #expect(photos.prompts == 0)
        }

        @Test func aGrantedCallForwardsTheExactAssetID() async throws {
            let assetID = "9F983DBA-EC35-42B8-8773-B597CF782EDD/L0/001"
            let loader = SpyLoader()
            let photos = library(.authorized)
            photos.add(assetID, .data(Data("a portrait".utf8)))
            try await with(photos) {
                _ = try await loader.guarded(by: PhotoLibraryPolicy()).load(assetID)
                let data = try await PhotoThumbnailLoader(settings: onDevice).guarded(
                    by: PhotoLibraryPolicy()
                )
                .load(assetID)
                #expect(data == Data("a portrait".utf8))
            }
            #expect(loader.receivedKeys == [assetID])
            #expect(photos.imageRequests.map(\.assetID) == [assetID])
        }

        @Test(arguments: [
            ("IMG_0009", PhotoThumbnailError.assetNotFound(assetID: "IMG_0009")),
            ("IMG_0004", .downloadFailed(assetID: "IMG_0004", reason: "the file is damaged")),
            ("IMG_0005", .downloadFailed(assetID: "IMG_0005", reason: "no image data came back")),
        ])
        func theLoadersErrorsArriveUnchanged(_ assetID: String, _ expected: PhotoThumbnailError) async throws
        {
            let thumbnails = PhotoThumbnailLoader(settings: onDevice).guarded(by: PhotoLibraryPolicy())
            try await with(library(.authorized)) {
                await #expect(throws: expected) { try await thumbnails.load(assetID) }
            }
        }

        @Test(arguments: denyingStatuses)
        func aDenialNeverReturnsEmptyData(_ status: PHAuthorizationStatus) async throws {
            let thumbnails = SpyLoader(result: { _ in Data() }).guarded(by: PhotoLibraryPolicy())
            try await with(library(status)) {
                do {
                    let data = try await thumbnails.load("IMG_0001")
                    Issue.record("a denial returned \(data.count) bytes instead of throwing")
                } catch let denial as AccessDenied {
                    #expect(denial.kind == .denied)
                    #expect(denial.gatekeeper == "photoLibrary")
                } catch {
                    Issue.record("a denial threw \(error) instead of AccessDenied")
                }
            }
        }
    }
#endif
