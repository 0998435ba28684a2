import Foundation
import GatehouseCore

/// An observer that keeps every record it is given, in order.
public final class RecordingObserver: AccessObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AccessRecord] = []

    /// Creates an observer that has recorded nothing yet.
    public init() {}

    /// Keeps `record`.
    public func observe(_ record: AccessRecord) { lock.withLock { stored.append(record) } }

    /// Every record observed so far, in the order they arrived.
    public var records: [AccessRecord] { lock.withLock { stored } }
}
