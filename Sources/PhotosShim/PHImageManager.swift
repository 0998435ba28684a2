import Foundation

// PhotoKit's image-data members, as Apple declares them; only the members GatehousePhotos uses.
// On Linux they answer from the task's `PhotoLibrarySimulation`.

/// A numeric identifier of an image request.
/// https://developer.apple.com/documentation/photos/phimagerequestid
public typealias PHImageRequestID = Int32

/// Which version of the image to request.
/// https://developer.apple.com/documentation/photos/phimagerequestoptionsversion
/// `enum PHImageRequestOptionsVersion : Int, @unchecked Sendable`
public enum PHImageRequestOptionsVersion: Int, @unchecked Sendable {
    /// The image with the user's edits. https://developer.apple.com/documentation/photos/phimagerequestoptionsversion/current
    case current = 0
    /// The image without edits. https://developer.apple.com/documentation/photos/phimagerequestoptionsversion/unadjusted
    case unadjusted = 1
    /// The original, highest-fidelity image. https://developer.apple.com/documentation/photos/phimagerequestoptionsversion/original
    case original = 2
}

/// How the image is delivered.
/// https://developer.apple.com/documentation/photos/phimagerequestoptionsdeliverymode
/// `enum PHImageRequestOptionsDeliveryMode : Int, @unchecked Sendable` (`opportunistic = 0` is
/// left out: unused, it calls back more than once).
public enum PHImageRequestOptionsDeliveryMode: Int, @unchecked Sendable {
    /// https://developer.apple.com/documentation/photos/phimagerequestoptionsdeliverymode/highqualityformat
    case highQualityFormat = 1
    /// https://developer.apple.com/documentation/photos/phimagerequestoptionsdeliverymode/fastformat
    case fastFormat = 2
}

/// Options of an image request.
/// https://developer.apple.com/documentation/photos/phimagerequestoptions
public class PHImageRequestOptions {
    /// Creates options with PhotoKit's defaults.
    public init() {}

    /// https://developer.apple.com/documentation/photos/phimagerequestoptions/version
    /// `var version: PHImageRequestOptionsVersion { get set }`
    public var version: PHImageRequestOptionsVersion = .current

    /// https://developer.apple.com/documentation/photos/phimagerequestoptions/deliverymode
    /// `var deliveryMode: PHImageRequestOptionsDeliveryMode { get set }` (PhotoKit's default,
    /// `opportunistic`, is not declared here; the shim starts at `highQualityFormat`)
    public var deliveryMode: PHImageRequestOptionsDeliveryMode = .highQualityFormat

    /// Whether Photos may download the image from iCloud.
    /// https://developer.apple.com/documentation/photos/phimagerequestoptions/isnetworkaccessallowed
    /// `var isNetworkAccessAllowed: Bool { get set }`
    public var isNetworkAccessAllowed = false
}

/// The orientation the image data is delivered with (ImageIO).
/// https://developer.apple.com/documentation/imageio/cgimagepropertyorientation
/// `enum CGImagePropertyOrientation : UInt32, @unchecked Sendable` (only `up` is declared).
public enum CGImagePropertyOrientation: UInt32, @unchecked Sendable {
    /// https://developer.apple.com/documentation/imageio/cgimagepropertyorientation/up
    case up = 1
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The info key whose value is the error that kept Photos from delivering the image.
/// https://developer.apple.com/documentation/photos/phimageerrorkey
public let PHImageErrorKey: String = "PHImageErrorKey"

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The info key whose value is `true` when the request was cancelled.
/// https://developer.apple.com/documentation/photos/phimagecancelledkey
public let PHImageCancelledKey: String = "PHImageCancelledKey"

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The info key whose value is `true` when the image is in iCloud and network access was not allowed.
/// https://developer.apple.com/documentation/photos/phimageresultisincloudkey
public let PHImageResultIsInCloudKey: String = "PHImageResultIsInCloudKey"

/// Retrieves image data for assets.
/// https://developer.apple.com/documentation/photos/phimagemanager
public class PHImageManager {
    private let simulation: PhotoLibrarySimulation?

    init(simulation: PhotoLibrarySimulation?) {
        self.simulation = simulation
    }

    /// The shared image manager.
    /// https://developer.apple.com/documentation/photos/phimagemanager/default()
    /// `class func \`default\`() -> PHImageManager`
    public class func `default`() -> PHImageManager {
        PHImageManager(simulation: PhotoLibrarySimulation.current)
    }

    /// Requests the largest image data of `asset` and calls `resultHandler` with it (or with
    /// `nil` and the reason in `info`).
    /// https://developer.apple.com/documentation/photos/phimagemanager/requestimagedataandorientation(for:options:resulthandler:)
    /// `func requestImageDataAndOrientation(for asset: PHAsset, options: PHImageRequestOptions?,
    ///     resultHandler: @escaping (Data?, String?, CGImagePropertyOrientation, [AnyHashable : Any]?) -> Void)
    ///     -> PHImageRequestID`
    public func requestImageDataAndOrientation(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        guard let simulation else {
            resultHandler(nil, nil, .up, [PHImageErrorKey: SimulatedPhotosError(message: "no photo library")])
            return 0
        }
        return simulation.requestImage(
            asset.localIdentifier, options: options ?? PHImageRequestOptions(), handler: resultHandler)
    }

    /// Cancels a request that has not completed; Photos then calls its handler with
    /// `PHImageCancelledKey` set to `true`.
    /// https://developer.apple.com/documentation/photos/phimagemanager/cancelimagerequest(_:)
    /// `func cancelImageRequest(_ requestID: PHImageRequestID)`
    public func cancelImageRequest(_ requestID: PHImageRequestID) {
        simulation?.cancel(requestID)
    }
}

/// The error the simulated library reports under `PHImageErrorKey`.
public struct SimulatedPhotosError: LocalizedError, Sendable, Hashable {
    /// What went wrong.
    public var message: String

    /// Creates the error.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var errorDescription: String? { message }
}
