import GatehousePhotos

/// Where a denial sends the user. The view model picks it from the denial's typed cause (the
/// photo-library status the gate read), never from the reason's text, which is for people.
enum PermissionRoute: String, Sendable, Hashable, CaseIterable {
    /// Not asked yet: show a button that requests authorization when the user taps it.
    case askForAccess = "ask for access"
    /// Denied or restricted: point the user to Settings > Privacy & Security > Photos.
    case openSettings = "open Settings"
    /// Limited: offer to select more photos (or allow full access).
    case selectMorePhotos = "select more photos"
    /// Denied by a rule that is not about photo access: show the reason, offer nothing to tap.
    case showReason = "show the reason"

    /// The route for a denial whose cause is `cause` (`nil` when the gatekeeper gave none or one
    /// of another type).
    init(cause: PhotoLibraryPolicy.Access?) {
        switch cause {
        case .notDetermined: self = .askForAccess
        case .denied, .restricted: self = .openSettings
        case .limited: self = .selectMorePhotos
        case .authorized, .unknown, nil: self = .showReason
        }
    }
}
