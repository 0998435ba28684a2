import Foundation

/// What the avatar view shows. There is no "empty image": a thumbnail is shown only when there are
/// bytes to show; a denial is shown as guidance, and anything else as a failure.
enum AvatarState: Sendable, Hashable {
    /// The thumbnail, never empty.
    case image(Data)
    /// Access was denied; the text tells the user what to do (open Settings, tap a button).
    case needsPermission(String)
    /// The thumbnail could not be shown; the text says why.
    case failed(String)
}
