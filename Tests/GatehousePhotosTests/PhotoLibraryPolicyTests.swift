#if !canImport(Photos)
    import Foundation
    import GatehouseCore
    import GatehousePhotos
    import PhotosShim
    import Testing

    @Suite("PhotoLibraryPolicy: the photo-library authorization, read on every call")
    struct PhotoLibraryPolicyTests {
        @Test func fullAccessAllowsEveryAsset() async throws {
            let photos = library(.authorized)
            try await with(photos) { () async throws in
                #expect(try await decision(on: "IMG_0001") == .allow)
                #expect(try await decision(on: "IMG_0002") == .allow)
            }
        }

        @Test func limitedAccessAllowsOnlyTheSharedAssetsFetchedByLocalIdentifier() async throws {
            let photos = library(.limited, sharing: ["IMG_0002"])
            try await with(photos) { () async throws in
                #expect(try await decision(on: "IMG_0002") == .allow)
                let denial = try #require(reason(try await decision(on: "IMG_0001")))
                #expect(denial.hasPrefix("the photo is not among the photos you shared with this app"))
                #expect(!denial.contains("IMG_0001"))
                #expect(denial.contains("open Settings"))
            }
            #expect(photos.fetches == [["IMG_0002"], ["IMG_0001"]])
        }

        @Test func aChangedLimitedSelectionIsFollowedOnTheNextCall() async throws {
            let photos = library(.limited, sharing: ["IMG_0002"])
            try await with(photos) { () async throws in
                #expect(try await decision(on: "IMG_0001") != .allow)
                photos.changeInSettings(to: .limited, sharing: ["IMG_0001", "IMG_0002"])
                #expect(try await decision(on: "IMG_0001") == .allow)
            }
        }

        @Test func deniedDeniesWithAReasonThatRoutesToSettings() async throws {
            let photos = library(.denied)
            try await with(photos) { () async throws in
                let denial = try #require(reason(try await decision(on: "IMG_0001")))
                #expect(
                    denial
                        == "photo access is off for this app; open Settings > Privacy & Security > Photos to allow it"
                )
            }
            #expect(photos.fetches.isEmpty)
        }

        @Test func restrictedDeniesWithAReasonThatRoutesToSettings() async throws {
            let photos = library(.restricted)
            try await with(photos) { () async throws in
                let denial = try #require(reason(try await decision(on: "IMG_0001")))
                #expect(denial.hasPrefix("photo access is restricted on this device"))
                #expect(denial.contains("Settings"))
            }
            #expect(photos.fetches.isEmpty)
        }

        @Test func notDeterminedDeniesSayingToAskFirstAndNeverPrompts() async throws {
            let photos = library(.notDetermined)
            try await with(photos) { () async throws in
                let denial = try #require(reason(try await decision(on: "IMG_0001")))
                #expect(denial.hasPrefix("photo access has not been requested yet"))
                #expect(denial.contains("Allow Photo Access"))
            }
            // No prompt, and no fetch (PhotoKit prompts on its own when an app fetches first).
            #expect(photos.prompts == 0)
            #expect(photos.fetches.isEmpty)
        }

        @Test func aGrantRevokedInSettingsWhileInTheBackgroundDeniesTheNextCall() async throws {
            let photos = library(.authorized)
            try await with(photos) { () async throws in
                #expect(try await decision(on: "IMG_0001") == .allow)
                photos.changeInSettings(to: .denied)  // the app is in the background meanwhile
                #expect(reason(try await decision(on: "IMG_0001"))?.contains("open Settings") == true)
                photos.changeInSettings(to: .authorized)
                #expect(try await decision(on: "IMG_0001") == .allow)
            }
            #expect(photos.statusReads == 3)
        }

        @Test func askingIsASeparateCallAndTheGateReadsItsAnswer() async throws {
            let photos = library(.notDetermined)
            photos.userWillAnswer(.limited, sharing: ["IMG_0001"])
            try await with(photos) { () async throws in
                #expect(try await decision(on: "IMG_0001") != .allow)
                #expect(photos.prompts == 0)
                #expect(await PhotoLibraryPolicy.requestAuthorization() == .limited)
                #expect(photos.prompts == 1)
                #expect(try await decision(on: "IMG_0001") == .allow)
                // Once answered, asking again shows no prompt and reports the status.
                #expect(await PhotoLibraryPolicy.requestAuthorization() == .limited)
            }
            #expect(photos.prompts == 1)
        }

        @Test func withNoLibraryTheStatusIsNotDeterminedAndEveryCallIsDenied() async throws {
            #expect(
                reason(try await decision(on: "IMG_0001"))?.hasPrefix("photo access has not been requested")
                    == true)
        }
    }
#endif
