import Foundation
import GatehouseCore
import GatehousePhotos

/// The avatar picker's view model: asks for thumbnails through whatever it is given (the proxy in
/// the app, a fake in tests) and turns the outcome into an ``AvatarState``.
@MainActor
final class AvatarViewModel {
    /// What the view shows now; `nil` before the first thumbnail was asked for.
    private(set) var state: AvatarState?
    private let thumbnails: any ResourceLoading<String, Data>

    /// Creates the view model over a thumbnail source keyed by asset identifier.
    init(thumbnails: any ResourceLoading<String, Data>) {
        self.thumbnails = thumbnails
    }

    /// Asks for the thumbnail of `assetID` and shows the image, the guidance, or the failure.
    func showThumbnail(for assetID: String) async {
        do {
            let data = try await thumbnails.load(assetID)
            if data.isEmpty {
                state = .failed(
                    "the thumbnail of \(assetID) came back empty (0 bytes), so there is nothing to show")
            } else {
                state = .image(data)
            }
        } catch let denial as AccessDenied where denial.isFailure {
            state = .failed("photo access could not be checked (\(denial.reason)); try again")
        } catch let denial as AccessDenied {
            // The route comes from the typed cause: the reason's words may change, the status not.
            let route = PermissionRoute(cause: denial.cause as? PhotoLibraryPolicy.Access)
            state = .needsPermission(route, denial.reason)
        } catch {
            state = .failed("the thumbnail of \(assetID) could not be loaded: \(error.localizedDescription)")
        }
    }
}
