import Foundation
import GatehouseCore

/// The photo library and the app's authorization as the system keeps them, simulated for Linux:
/// what tests and the avatar-picker example set, and what the PhotoKit declarations of this shim
/// read. It records every status read, prompt, fetch, image request and cancellation.
///
/// A simulation applies to the task that binds it, and to the tasks that task starts:
/// ```swift
/// let library = PhotoLibrarySimulation(status: .authorized, assets: ["IMG_1": .data(jpeg)])
/// try await PhotoLibrarySimulation.$current.withValue(library) { try await thumbnails.load("IMG_1") }
/// ```
public final class PhotoLibrarySimulation: Sendable {
    /// What Photos delivers for an asset's image.
    public enum Image: Sendable, Hashable {
        /// The image data, on the device.
        case data(Data)
        /// The image data, in iCloud only: delivered when network access is allowed; otherwise
        /// Photos answers with no data and `PHImageResultIsInCloudKey`.
        case inICloud(Data)
        /// Photos fails with an error that says `message`.
        case failure(String)
        /// Photos does not answer until the request is cancelled (or ``complete(_:with:)``).
        case pending
    }

    /// One image request as Photos received it.
    public struct ImageRequest: Sendable, Hashable {
        /// The request's identifier.
        public var id: PHImageRequestID
        /// The asset's local identifier.
        public var assetID: String
        /// The requested version.
        public var version: PHImageRequestOptionsVersion
        /// The requested delivery mode.
        public var deliveryMode: PHImageRequestOptionsDeliveryMode
        /// Whether network (iCloud) access was allowed.
        public var isNetworkAccessAllowed: Bool

        /// Creates a record.
        public init(
            id: PHImageRequestID, assetID: String, version: PHImageRequestOptionsVersion,
            deliveryMode: PHImageRequestOptionsDeliveryMode, isNetworkAccessAllowed: Bool
        ) {
            self.id = id
            self.assetID = assetID
            self.version = version
            self.deliveryMode = deliveryMode
            self.isNetworkAccessAllowed = isNetworkAccessAllowed
        }
    }

    /// The simulation the PhotoKit declarations read in the current task; `nil`: an empty
    /// library whose status is `notDetermined`.
    @TaskLocal public static var current: PhotoLibrarySimulation?

    private struct State {
        var status: PHAuthorizationStatus
        var shared: Set<String> = []
        var assets: [String: Image]
        var answer: PHAuthorizationStatus = .denied
        var answerSelection: Set<String> = []
        var statusReads = 0
        var prompts = 0
        var fetches: [[String]] = []
        var imageRequests: [ImageRequest] = []
        var cancellations: [PHImageRequestID] = []
        var waiting: [PHImageRequestID: PendingHandler] = [:]
    }

    /// A result handler kept while its request is pending. PhotoKit's handler type is not
    /// `Sendable`; the simulation calls it once, from the cancelling or completing call.
    private struct PendingHandler: @unchecked Sendable {
        let call: (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    }

    private let state: LockedState<State>
    private let started: AsyncStream<PHImageRequestID>.Continuation
    /// The identifiers of image requests, in the order they arrive; a test awaits a request here
    /// instead of sleeping.
    public let startedRequests: AsyncStream<PHImageRequestID>

    /// Creates a library holding `assets` (image by local identifier) with the app's
    /// authorization at `status`; with `.limited`, `shared` are the assets the user shared.
    public init(
        status: PHAuthorizationStatus = .notDetermined, assets: [String: Image] = [:],
        shared: Set<String> = []
    ) {
        var initial = State(status: status, assets: assets)
        initial.shared = shared
        state = LockedState(initial)
        (startedRequests, started) = AsyncStream.makeStream()
    }

    // MARK: What the user and the system do

    /// The user (or device management) changes the app's access in Settings; with `.limited`,
    /// `shared` is the new selection.
    public func changeInSettings(to status: PHAuthorizationStatus, sharing shared: Set<String> = []) {
        state.withLock {
            $0.status = status
            $0.shared = status == .limited ? shared : []
        }
    }

    /// What the user will answer when the system prompt is shown (`.denied` unless told).
    public func userWillAnswer(_ answer: PHAuthorizationStatus, sharing shared: Set<String> = []) {
        state.withLock {
            $0.answer = answer
            $0.answerSelection = shared
        }
    }

    /// Adds (or replaces) an asset.
    public func add(_ assetID: String, _ image: Image) {
        state.withLock { $0.assets[assetID] = image }
    }

    /// Deletes an asset, as the user can in Photos at any time.
    public func delete(_ assetID: String) {
        state.withLock { _ = $0.assets.removeValue(forKey: assetID) }
    }

    /// Answers a pending request with `image`, as Photos does when a download finishes.
    public func complete(_ requestID: PHImageRequestID, with image: Image) {
        let handler = state.withLock { $0.waiting.removeValue(forKey: requestID) }
        if let handler { Self.answer(image, isNetworkAccessAllowed: true, to: handler.call) }
    }

    // MARK: What was asked

    /// The app's authorization status now (reading it here is not counted in ``statusReads``).
    public var status: PHAuthorizationStatus { state.withLock { $0.status } }
    /// The assets the user shared under limited access.
    public var shared: Set<String> { state.withLock { $0.shared } }

    /// How often the authorization status was read.
    public var statusReads: Int { state.withLock { $0.statusReads } }
    /// How often the system prompt was shown (asked for, or by a fetch while not determined).
    public var prompts: Int { state.withLock { $0.prompts } }
    /// The identifiers of every fetch, in order.
    public var fetches: [[String]] { state.withLock { $0.fetches } }
    /// Every image request, in order.
    public var imageRequests: [ImageRequest] { state.withLock { $0.imageRequests } }
    /// The identifiers of every cancelled request, in order.
    public var cancellations: [PHImageRequestID] { state.withLock { $0.cancellations } }

    // MARK: The shim's side

    func readStatus() -> PHAuthorizationStatus {
        state.withLock {
            $0.statusReads += 1
            return $0.status
        }
    }

    func prompt() -> PHAuthorizationStatus {
        state.withLock {
            if $0.status == .notDetermined {
                $0.prompts += 1
                $0.status = $0.answer
                $0.shared = $0.answer == .limited ? $0.answerSelection : []
            }
            return $0.status
        }
    }

    func fetch(_ identifiers: [String]) -> [String] {
        state.withLock { state in
            state.fetches.append(identifiers)
            switch state.status {
            case .authorized:
                return identifiers.filter { state.assets[$0] != nil }
            case .limited:
                return identifiers.filter { state.assets[$0] != nil && state.shared.contains($0) }
            case .notDetermined:
                // PhotoKit prompts on its own when an app fetches before asking.
                state.prompts += 1
                return []
            case .denied, .restricted:
                return []
            }
        }
    }

    func requestImage(
        _ assetID: String, options: PHImageRequestOptions,
        handler: @escaping (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let (id, image) = state.withLock { state in
            let id = PHImageRequestID(state.imageRequests.count + 1)
            state.imageRequests.append(
                ImageRequest(
                    id: id, assetID: assetID, version: options.version, deliveryMode: options.deliveryMode,
                    isNetworkAccessAllowed: options.isNetworkAccessAllowed))
            let image = state.assets[assetID] ?? .failure("the asset \(assetID) was deleted")
            if image == .pending { state.waiting[id] = PendingHandler(call: handler) }
            return (id, image)
        }
        started.yield(id)
        if image != .pending {
            Self.answer(image, isNetworkAccessAllowed: options.isNetworkAccessAllowed, to: handler)
        }
        return id
    }

    func cancel(_ requestID: PHImageRequestID) {
        let handler = state.withLock {
            $0.cancellations.append(requestID)
            return $0.waiting.removeValue(forKey: requestID)
        }
        handler?.call(nil, nil, .up, [PHImageCancelledKey: true])
    }

    private static func answer(
        _ image: Image, isNetworkAccessAllowed: Bool,
        to handler: (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    ) {
        switch image {
        case .data(let data):
            handler(data, "public.jpeg", .up, [:])
        case .inICloud(let data) where isNetworkAccessAllowed:
            handler(data, "public.jpeg", .up, [:])
        case .inICloud:
            handler(nil, nil, .up, [PHImageResultIsInCloudKey: true])
        case .failure(let message):
            handler(nil, nil, .up, [PHImageErrorKey: SimulatedPhotosError(message: message)])
        case .pending:
            break
        }
    }
}
