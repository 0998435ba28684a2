/// The photo-library authorization states, as PhotoKit's `PHAuthorizationStatus` names them.
enum PhotoAuthorizationStatus: String, Sendable, Hashable, CustomStringConvertible {
    /// The app has not asked yet; the system prompt has never been shown.
    case notDetermined
    /// Parental controls or device management forbid access; the user cannot change it.
    case restricted
    /// The user refused access (in the prompt or later in Settings).
    case denied
    /// The user shared only the photos they selected.
    case limited
    /// The user shared the whole library.
    case authorized

    /// The state as a person reads it, such as `not determined`.
    var description: String {
        switch self {
        case .notDetermined: "not determined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .limited: "limited"
        case .authorized: "authorized"
        }
    }
}
