import GatehouseCore

/// The device's photo-library authorization, simulated: the state the system keeps for the app,
/// which the user changes in the system prompt or later in Settings, between any two calls.
///
/// On an Apple platform this is `PHPhotoLibrary.authorizationStatus(for: .readWrite)` and, in
/// limited mode, the assets the user picked (docs/photokit.md).
final class SimulatedPhotoAuthorization: Sendable {
    /// What the system knows at one instant: the status and, when limited, the shared assets.
    struct Snapshot: Sendable, Hashable {
        /// The authorization status.
        var status: PhotoAuthorizationStatus
        /// The asset identifiers the user shared; meaningful only when `status` is `limited`.
        var selection: Set<String>
    }

    private let state: Locked<Snapshot>

    /// Creates the authorization of an app that has never asked.
    init() {
        state = Locked(Snapshot(status: .notDetermined, selection: []))
    }

    /// The current status and selection, read afresh on every call.
    var current: Snapshot {
        state.withLock { $0 }
    }

    /// The system prompt: shown only while the status is `notDetermined`, as in PhotoKit; the
    /// user's answer becomes the status. Returns the status after the request.
    @discardableResult
    func requestAuthorization(
        userAnswers answer: PhotoAuthorizationStatus, selecting selection: Set<String> = []
    )
        -> PhotoAuthorizationStatus
    {
        state.withLock { state in
            if state.status == .notDetermined {
                state = Snapshot(status: answer, selection: answer == .limited ? selection : [])
            }
            return state.status
        }
    }

    /// The user (or device management) changes the app's photo access in Settings.
    func changeInSettings(to status: PhotoAuthorizationStatus, selecting selection: Set<String> = []) {
        state.withLock { $0 = Snapshot(status: status, selection: status == .limited ? selection : []) }
    }
}
