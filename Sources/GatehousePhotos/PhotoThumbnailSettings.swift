/// How ``PhotoThumbnailLoader`` asks Photos for an image: stated choices, no hidden defaults
/// for the one that costs the user data (iCloud).
public struct PhotoThumbnailSettings: Sendable, Hashable {
    /// Which rendition of the photo (PhotoKit's `PHImageRequestOptionsVersion`).
    public enum Rendition: Sendable, Hashable {
        /// The photo as the user sees it, with their edits.
        case current
        /// The photo without the user's edits.
        case unadjusted
        /// The original file, the largest and highest-fidelity data.
        case original
    }

    /// Quality against speed (PhotoKit's `PHImageRequestOptionsDeliveryMode`); either way Photos
    /// answers once.
    public enum Delivery: Sendable, Hashable {
        /// The best image available, however long it takes.
        case highQuality
        /// A fast-loading image, possibly smaller and of lower quality.
        case fast
    }

    /// Which rendition to load.
    public var rendition: Rendition
    /// Quality against speed.
    public var delivery: Delivery
    /// Whether Photos may download a photo that is only in iCloud. When `false`, such a photo
    /// fails with ``PhotoThumbnailError/downloadFailed(assetID:reason:)``.
    public var allowsNetworkAccess: Bool

    /// Creates the settings; whether iCloud downloads are allowed must be stated.
    public init(rendition: Rendition = .current, delivery: Delivery = .highQuality, allowsNetworkAccess: Bool)
    {
        self.rendition = rendition
        self.delivery = delivery
        self.allowsNetworkAccess = allowsNetworkAccess
    }
}
