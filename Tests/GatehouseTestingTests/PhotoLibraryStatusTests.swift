import Foundation
import GatehouseCore
import GatehousePhotos
import GatehouseTesting
import Testing

#if !os(watchOS)
    /// An app's test drives the photo-library gate through every authorization status and routes
    /// each denial on its cause, as a view model does.
    @Suite("The photo-library gate through every status, from an app's tests")
    struct PhotoLibraryStatusTests {
        static let denying: [PhotoLibraryPolicy.Access] = [.notDetermined, .denied, .restricted]

        /// The proxy an app builds, over a spy loader, gated by `policy`.
        static func photos(_ policy: PhotoLibraryPolicy, _ loader: SpyLoader) -> AccessProxy<SpyLoader> {
            AccessProxy(loader, gatekeepers: [policy])
        }

        @Test(arguments: denying)
        func aStatusWithoutAccessDeniesWithItselfAsTheCause(
            _ access: PhotoLibraryPolicy.Access
        ) async throws {
            let loader = SpyLoader()
            let photos = Self.photos(PhotoLibraryPolicy(access: { access }), loader)

            let denied = await #expect(throws: AccessDenied.self) { try await photos.load("IMG_0001") }
            #expect(denied?.cause as? PhotoLibraryPolicy.Access == access)
            #expect(denied?.gatekeeper == "photoLibrary")
            #expect(loader.calls == 0)
        }

        @Test func limitedAccessAllowsOnlyTheSharedPhotos() async throws {
            let loader = SpyLoader()
            let policy = PhotoLibraryPolicy(access: { .limited }, isShared: { $0 == "IMG_0001" })
            let photos = Self.photos(policy, loader)

            #expect(try await photos.load("IMG_0001") == Data("IMG_0001".utf8))
            let denied = await #expect(throws: AccessDenied.self) { try await photos.load("IMG_0002") }
            #expect(denied?.cause as? PhotoLibraryPolicy.Access == .limited)
            #expect(loader.receivedKeys == ["IMG_0001"])
        }

        @Test func fullAccessAllowsEveryPhoto() async throws {
            let loader = SpyLoader()
            let photos = Self.photos(PhotoLibraryPolicy(access: { .authorized }), loader)
            _ = try await photos.load("IMG_0001")
            _ = try await photos.load("IMG_0002")
            #expect(loader.receivedKeys == ["IMG_0001", "IMG_0002"])
        }
    }
#endif

#if !canImport(Photos) && !os(watchOS)
    /// The same statuses set in the simulated photo library that `GatehousePhotos` reads where
    /// there is no Photos, through the system-reading `PhotoLibraryPolicy()`.
    @Suite("The photo-library gate over the simulated library")
    struct SimulatedPhotoLibraryTests {
        static let denying: [(PHAuthorizationStatus, PhotoLibraryPolicy.Access)] = [
            (.notDetermined, .notDetermined), (.denied, .denied), (.restricted, .restricted),
        ]

        @Test(arguments: denying)
        func aStatusWithoutAccessDeniesWithItselfAsTheCause(
            _ status: PHAuthorizationStatus, _ access: PhotoLibraryPolicy.Access
        ) async throws {
            let loader = SpyLoader()
            let photos = AccessProxy(loader, gatekeepers: [PhotoLibraryPolicy()])
            let library = PhotoLibrarySimulation(status: status)

            let denied = await PhotoLibrarySimulation.$current.withValue(library) {
                await #expect(throws: AccessDenied.self) { try await photos.load("IMG_0001") }
            }
            #expect(denied?.cause as? PhotoLibraryPolicy.Access == access)
            #expect(loader.calls == 0)
        }

        @Test func limitedAccessAllowsOnlyTheSharedPhotos() async throws {
            let loader = SpyLoader()
            let photos = AccessProxy(loader, gatekeepers: [PhotoLibraryPolicy()])
            let library = PhotoLibrarySimulation(
                status: .limited, assets: ["IMG_0001": .data(Data("a cat".utf8)), "IMG_0002": .data(Data())],
                shared: ["IMG_0001"])

            try await PhotoLibrarySimulation.$current.withValue(library) {
                _ = try await photos.load("IMG_0001")
                let denied = await #expect(throws: AccessDenied.self) { try await photos.load("IMG_0002") }
                #expect(denied?.cause as? PhotoLibraryPolicy.Access == .limited)
            }
            #expect(loader.receivedKeys == ["IMG_0001"])
        }

        @Test func fullAccessAllowsEveryPhoto() async throws {
            let loader = SpyLoader()
            let photos = AccessProxy(loader, gatekeepers: [PhotoLibraryPolicy()])
            let library = PhotoLibrarySimulation(status: .authorized)

            try await PhotoLibrarySimulation.$current.withValue(library) {
                _ = try await photos.load("IMG_0001")
            }
            #expect(loader.receivedKeys == ["IMG_0001"])
        }
    }
#endif
