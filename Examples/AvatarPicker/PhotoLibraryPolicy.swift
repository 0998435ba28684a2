import GatehouseCore

/// The gate in front of the thumbnail loader: reads the photo-library authorization on every
/// call (permission changes in Settings at any time, so a grant is never remembered).
///
/// - `authorized`: allows.
/// - `limited`: allows only the assets the user selected. PhotoKit would not return any other
///   asset anyway; denying here says why, and how to share more, instead of letting the loader
///   come back with nothing that a careless caller might show as an empty image.
/// - `denied`: denies, with the route to Settings.
/// - `restricted`: denies; the user cannot change it, so no route to Settings is offered.
/// - `notDetermined`: denies. Asking the user is the app's job at a user action (a button), never
///   the gate's: a gate that pops up a system prompt from inside a thumbnail load would ask at a
///   moment the user did not choose.
struct PhotoLibraryPolicy: AccessPolicy {
    /// The gate's name in denials and audit records.
    let name = "photoLibrary"
    /// Where the current authorization is read.
    let authorization: SimulatedPhotoAuthorization

    /// Allows or denies `request` (its resource is an asset identifier) by the current status.
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        let current = authorization.current
        switch current.status {
        case .authorized:
            return .allow
        case .limited where current.selection.contains(request.resource):
            return .allow
        case .limited:
            return .deny(
                reason: "\(request.resource) is not among the photos you shared with this app; "
                    + "open Settings > Privacy & Security > Photos to select more photos or allow full access"
            )
        case .denied:
            return .deny(
                reason: "photo access is off for this app; "
                    + "open Settings > Privacy & Security > Photos to allow it")
        case .restricted:
            return .deny(
                reason: "photo access is restricted on this device (parental controls or device management) "
                    + "and cannot be changed in this app's settings")
        case .notDetermined:
            return .deny(
                reason: "photo access has not been requested yet; "
                    + "tap Allow Photo Access to choose an avatar from your library")
        }
    }
}
