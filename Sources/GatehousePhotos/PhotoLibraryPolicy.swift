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
    /// It reads `PHPhotoLibrary.authorizationStatus(for: .readWrite)` on every call and never
    /// remembers a grant: the user can change it in Settings at any time, also while the app is in
    /// the background.
    /// - `authorized`: allows.
    /// - `limited`: allows only an asset the user shared (fetched by its local identifier); denies any
    ///   other with a reason that says how to share more.
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

        /// Creates the gate, named `name` in denials and audit records.
        public init(name: String = "photoLibrary") {
            self.name = name
        }

        /// Allows or denies `request` by the authorization status read now.
        ///
        /// - Throws: an error naming the status when PhotoKit reports one this version does not know.
        public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
            switch Access(PHPhotoLibrary.authorizationStatus(for: .readWrite)) {
            case .authorized:
                return .allow
            case .limited:
                let shared = PHAsset.fetchAssets(withLocalIdentifiers: [request.resource], options: nil)
                return shared.count > 0
                    ? .allow
                    : .deny(
                        reason: "\(request.resource) is not among the photos you shared with this app; "
                            + "open Settings > Privacy & Security > Photos to select more photos or allow full access"
                    )
            case .denied:
                return .deny(
                    reason:
                        "photo access is off for this app; open Settings > Privacy & Security > Photos to allow it"
                )
            case .restricted:
                return .deny(
                    reason:
                        "photo access is restricted on this device (parental controls or device management); "
                        + "Screen Time in Settings, or the device's administrator, can lift it")
            case .notDetermined:
                return .deny(
                    reason: "photo access has not been requested yet; "
                        + "tap Allow Photo Access to choose an avatar from your library")
            case .unknown(let rawValue):
                throw UnknownAuthorizationStatus(rawValue: rawValue)
            }
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
