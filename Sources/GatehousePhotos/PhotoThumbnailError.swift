import Foundation

/// Why ``PhotoThumbnailLoader`` produced no image. It never answers with empty data instead.
public enum PhotoThumbnailError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// No asset with this local identifier is visible to the app (deleted, never existed, or not
    /// shared under limited access).
    case assetNotFound(assetID: String)
    /// Photos could not deliver the image: an error, a photo only in iCloud while network access
    /// is not allowed, or no data.
    case downloadFailed(assetID: String, reason: String)
    /// The task was cancelled; the image request was cancelled with it.
    case cancelled(assetID: String)

    /// The error in a sentence.
    public var description: String {
        switch self {
        case .assetNotFound(let assetID):
            "no photo \(assetID) in the library"
        case .downloadFailed(let assetID, let reason):
            "Photos could not deliver \(assetID): \(reason)"
        case .cancelled(let assetID):
            "loading \(assetID) was cancelled"
        }
    }

    /// The same sentence, for `localizedDescription`.
    public var errorDescription: String? { description }
}
