import Foundation
import GatehouseCore
import GatehousePhotos
import Testing

/// A denial by the photo-library gate carries the access that caused it, so a view model routes
/// on `cause` (ask, Settings, select more) without reading the reason; the status comes from a
/// source of the app's own, on any platform, without the system prompt.
@Suite("PhotoLibraryPolicy: typed causes over the app's own status source")
struct PhotoLibraryCauseTests {
    /// A thumbnail source that must never be reached by a denied call.
    struct Thumbnails: ResourceLoading {
        func load(_ key: String) async throws -> Data { Data(key.utf8) }
    }

    static let denying: [PhotoLibraryPolicy.Access] = [.notDetermined, .denied, .restricted, .limited]

    @Test(arguments: denying)
    func eachDenialCarriesTheAccessThatCausedIt(_ access: PhotoLibraryPolicy.Access) async throws {
        let policy = PhotoLibraryPolicy(access: { access }, isShared: { $0 == "IMG_0002" })
        let avatars = Thumbnails().guarded(by: policy)
        let denied = await #expect(throws: AccessDenied.self) { try await avatars.load("IMG_0001") }
        #expect(denied?.cause as? PhotoLibraryPolicy.Access == access)
        #expect(denied?.isFailure == false)
        let verdict = try await AccessGate(gatekeepers: [policy]).decide(
            AccessRequest(subject: nil, action: .read, resource: "IMG_0001"))
        #expect(verdict.cause as? PhotoLibraryPolicy.Access == access)
    }

    @Test func anAllowHasNoCauseAndASharedPhotoIsAllowedUnderLimitedAccess() async throws {
        let limited = PhotoLibraryPolicy(access: { .limited }, isShared: { $0 == "IMG_0002" })
        let verdict = try await AccessGate(gatekeepers: [limited]).decide(AccessRequest(resource: "IMG_0002"))
        #expect(verdict.isAllowed)
        #expect(verdict.cause == nil)
        let full = PhotoLibraryPolicy(access: { .authorized })
        #expect(try await full.evaluate(AccessRequest(resource: "IMG_0001")) == .allow)
    }

    @Test func theCauseSurvivesACombinatorAndTheReasonNamesNoAsset() async throws {
        let policy = AllOf(PhotoLibraryPolicy(access: { .limited }))
        let explanation = try await policy.explain(AccessRequest(resource: "IMG_0001"))
        #expect(explanation.cause as? PhotoLibraryPolicy.Access == .limited)
        #expect(explanation.decision.reason?.contains("IMG_0001") == false)
    }

    @Test func theStatusIsReadOnEveryCall() async throws {
        let status = StatusBox(.notDetermined)
        let avatars = Thumbnails().guarded(by: PhotoLibraryPolicy(access: { status.value }))
        await #expect(throws: AccessDenied.self) { try await avatars.load("IMG_0001") }
        status.value = .authorized
        #expect(try await avatars.load("IMG_0001") == Data("IMG_0001".utf8))
        status.value = .denied
        let denied = await #expect(throws: AccessDenied.self) { try await avatars.load("IMG_0001") }
        #expect(denied?.cause as? PhotoLibraryPolicy.Access == .denied)
    }

    @Test func anUnknownStatusFailsClosed() async throws {
        let avatars = Thumbnails().guarded(by: PhotoLibraryPolicy(access: { .unknown(42) }))
        let denied = await #expect(throws: AccessDenied.self) { try await avatars.load("IMG_0001") }
        #expect(denied?.isFailure == true)
        #expect(denied?.cause == nil)
    }
}

/// A status an app's test changes between calls.
final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var current: PhotoLibraryPolicy.Access

    init(_ access: PhotoLibraryPolicy.Access) {
        current = access
    }

    var value: PhotoLibraryPolicy.Access {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}
