import Foundation
import GatehouseCore
import GatehousePhotos
import Testing

@testable import avatar_picker

#if !canImport(Photos)
    /// The avatar view model picks its route from the denial's typed cause, never from its words.
    @Suite("avatar-picker routes on the cause")
    @MainActor
    struct AvatarPickerRouteTests {
        /// A gate that denies with `reason` and `cause`, whatever the request.
        struct Denying: AccessPolicy {
            let name = "photoLibrary"
            let reason: String
            let cause: PhotoLibraryPolicy.Access?
            func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
                .deny(reason: reason)
            }
            func explain(_ request: AccessRequest) async throws -> AccessExplanation {
                AccessExplanation(.deny(reason: reason), cause: cause)
            }
        }

        /// A loader the gate never lets through in these tests.
        struct Thumbnails: ResourceLoading {
            func load(_ key: String) async throws -> Data { Data("image".utf8) }
        }

        func state(reason: String, cause: PhotoLibraryPolicy.Access?) async -> AvatarState? {
            let proxy = AccessProxy(Thumbnails(), gatekeepers: [Denying(reason: reason, cause: cause)])
            let viewModel = AvatarViewModel(thumbnails: proxy)
            await viewModel.showThumbnail(for: "IMG_0001")
            return viewModel.state
        }

        @Test(arguments: [
            (PhotoLibraryPolicy.Access.notDetermined, PermissionRoute.askForAccess),
            (.denied, .openSettings),
            (.restricted, .openSettings),
            (.limited, .selectMorePhotos),
        ])
        func eachStatusTakesItsRoute(_ access: PhotoLibraryPolicy.Access, _ route: PermissionRoute) async {
            #expect(await state(reason: "words", cause: access) == .needsPermission(route, "words"))
        }

        @Test func theWordsOfTheReasonDoNotChangeTheRoute() async {
            // The text of a not-determined denial, with the cause of a denied one: Settings wins.
            let words = "photo access has not been requested yet; tap Allow Photo Access"
            #expect(await state(reason: words, cause: .denied) == .needsPermission(.openSettings, words))
        }

        @Test func aDenialWithoutAPhotoCauseShowsOnlyTheReason() async {
            #expect(
                await state(reason: "outside office hours", cause: nil)
                    == .needsPermission(.showReason, "outside office hours"))
        }

        @Test func theRealPolicyGivesEveryStatusItsRoute() async {
            let expected: [(PhotoLibraryPolicy.Access, PermissionRoute)] = [
                (.notDetermined, .askForAccess), (.denied, .openSettings), (.restricted, .openSettings),
                (.limited, .selectMorePhotos),
            ]
            for (access, route) in expected {
                let proxy = AccessProxy(
                    Thumbnails(),
                    gatekeepers: [PhotoLibraryPolicy(access: { access }, isShared: { _ in false })])
                let viewModel = AvatarViewModel(thumbnails: proxy)
                await viewModel.showThumbnail(for: "IMG_0001")
                guard case .needsPermission(let shown, _) = viewModel.state else {
                    Issue.record("\(access): \(String(describing: viewModel.state))")
                    continue
                }
                #expect(shown == route, "\(access)")
            }
        }
    }
#endif
