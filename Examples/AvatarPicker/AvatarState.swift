import Foundation

/// What the avatar view shows. There is no "empty image": a thumbnail is shown only when there are
/// bytes to show; a denial is shown as guidance, and anything else as a failure.
enum AvatarState: Sendable, Hashable {
    /// The thumbnail, never empty.
    case image(Data)
    /// Access was denied: the route says what the view offers (a button that asks, a way to
    /// Settings, a way to select more photos), chosen from the denial's cause; the text is the
    /// gate's reason, shown as guidance.
    case needsPermission(PermissionRoute, String)
    /// The thumbnail could not be shown; the text says why.
    case failed(String)
}
