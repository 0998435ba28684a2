import GatehouseCore

// Photos on Apple platforms; PhotosShim, the same declarations, where there is no Photos.
// watchOS has no PhotoKit: the module is empty there.
#if canImport(Photos)
    import Photos
#elseif !os(watchOS)
    import PhotosShim
#endif

#if !os(watchOS)
    /// The photo-library gate: allows a request (its resource is a `PHAsset` local identifier) by the
    /// app's photo-library authorization as it is at that moment.
    ///
    /// It reads `PHPhotoLibrary.authorizationStatus(for: .readWrite)` on every call (or the status
    /// source given to ``init(name:access:isShared:)``) and never remembers a grant: the user can
    /// change it in Settings at any time, also while the app is in the background. Each denial
    /// carries the ``Access`` that caused it as `AccessDenied/cause`, for a view model to switch
    /// on (`denied.cause as? PhotoLibraryPolicy.Access`):
    /// - `authorized`: allows.
    /// - `limited`: allows only an asset the user shared (fetched by its local identifier); denies any
    ///   other (cause `.limited`) with a reason that says how to share more.
    /// - `denied`, `restricted`: denies, with a reason that routes to Settings.
    /// - `notDetermined`: denies, with a reason that says to ask first. The gate never prompts (and
    ///   never fetches, which would prompt): asking is ``requestAuthorization()``, at a user action.
    /// - a status this version does not know: throws, so the gate fails closed.
    public struct PhotoLibraryPolicy: AccessPolicy {
        /// The app's photo-library access, as ``requestAuthorization()`` reports it.
        public enum Access: Sendable, Hashable {
            /// The app has not asked; the system prompt has not been shown.
            case notDetermined
            /// Parental controls or device management forbid access.
            case restricted
            /// The user refused access.
            case denied
            /// The user shared only the photos they selected.
            case limited
            /// The user shared the whole library.
            case authorized
            /// A status this version does not know, by its raw value.
            case unknown(Int)
        }

        /// The gate's name in denials and audit records.
        public let name: String
        private let access: @Sendable () async -> Access
        private let isShared: @Sendable (String) async -> Bool

        /// Creates the gate over the system's photo library, named `name` in denials and audit
        /// records.
        public init(name: String = "photoLibrary") {
            self.init(
                name: name, access: { Access(PHPhotoLibrary.authorizationStatus(for: .readWrite)) },
                isShared: { PHAsset.fetchAssets(withLocalIdentifiers: [$0], options: nil).count > 0 })
        }

        /// Creates the gate over a status source of the app's own: `access` gives the access now,
        /// and `isShared` whether an asset is among the photos a limited library shares. An app's
        /// tests drive every status this way, on any platform, without the system prompt.
        public init(
            name: String = "photoLibrary", access: @escaping @Sendable () async -> Access,
            isShared: @escaping @Sendable (_ assetIdentifier: String) async -> Bool = { _ in false }
        ) {
            self.name = name
            self.access = access
            self.isShared = isShared
        }

        /// Allows or denies `request` by the authorization status read now.
        ///
        /// - Throws: an error naming the status when PhotoKit reports one this version does not know.
        public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            try await explain(request).decision
        }

        /// ``evaluate(_:)``'s decision; a denial's `AccessExplanation/cause` is the ``Access``
        /// read now.
        public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
            let status = await access()
            let reason: String
            switch status {
            case .authorized:
                return AccessExplanation(.allow)
            case .limited:
                if await isShared(request.resource) { return AccessExplanation(.allow) }
                reason =
                    "the photo is not among the photos you shared with this app; "
                    + "open Settings > Privacy & Security > Photos to select more photos or allow full access"
            case .denied:
                reason =
                    "photo access is off for this app; open Settings > Privacy & Security > Photos to allow it"
            case .restricted:
                reason =
                    "photo access is restricted on this device (parental controls or device management); "
                    + "Screen Time in Settings, or the device's administrator, can lift it"
            case .notDetermined:
                reason =
                    "photo access has not been requested yet; "
                    + "tap Allow Photo Access to choose an avatar from your library"
            case .unknown(let rawValue):
                throw UnknownAuthorizationStatus(rawValue: rawValue)
            }
            return AccessExplanation(.deny(reason: reason), cause: status)
        }

        /// Shows the system prompt if the app has not asked yet, and returns the access afterwards.
        /// Call it at a user action (an "Allow Photo Access" button), never from a load; the app's
        /// Info.plist needs `NSPhotoLibraryUsageDescription`.
        public static func requestAuthorization() async -> Access {
            await withCheckedContinuation { continuation in
                PHPhotoLibrary.requestAuthorization(for: .readWrite) { status in
                    continuation.resume(returning: Access(status))
                }
            }
        }
    }

    extension PhotoLibraryPolicy.Access {
        /// The access a PhotoKit status stands for. Compared case by case, not switched over, so that
        /// the same source compiles against Photos (an open enum) and the Linux shim.
        init(_ status: PHAuthorizationStatus) {
            if status == .authorized {
                self = .authorized
            } else if status == .limited {
                self = .limited
            } else if status == .denied {
                self = .denied
            } else if status == .restricted {
                self = .restricted
            } else if status == .notDetermined {
                self = .notDetermined
            } else {
                self = .unknown(status.rawValue)
            }
        }
    }

    /// PhotoKit reported an authorization status this version does not know; the gate fails closed.
    struct UnknownAuthorizationStatus: Error, CustomStringConvertible {
        var rawValue: Int
        var description: String { "unknown photo authorization status \(rawValue)" }
    }
#endif
