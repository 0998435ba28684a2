import GatehouseCore

/// An observer that keeps every record it is given, in order, for a test to read: the in-memory
/// decision log of an app's test target.
///
/// ```swift
/// let observer = RecordingObserver()
/// let photos = AccessProxy(loader, gatekeepers: [policy], observer: observer)
/// _ = try? await photos.load("IMG_0001")
/// #expect(observer.decisions == [.deny(reason: "...")])
/// ```
public final class RecordingObserver: AccessObserver {
    private let stored = LockedState<[AccessRecord]>([])

    /// Creates an observer that has recorded nothing yet.
    public init() {}

    /// Keeps `record`.
    public func observe(_ record: AccessRecord) { stored.withLock { $0.append(record) } }

    /// Every record observed so far, in the order they arrived.
    public var records: [AccessRecord] { stored.withLock { $0 } }

    /// The decision of every record observed so far, in order.
    public var decisions: [AccessDecision] { records.map(\.decision) }

    /// Forgets every record observed so far.
    public func removeAll() { stored.withLock { $0.removeAll() } }
}
