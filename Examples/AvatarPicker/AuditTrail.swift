import GatehouseCore

/// Keeps the proxy's audit records, so the story can show what the gate decided on each call.
final class AuditTrail: AccessObserver {
    private let records = Locked<[AccessRecord]>([])

    /// Keeps `record`.
    func observe(_ record: AccessRecord) {
        records.withLock { $0.append(record) }
    }

    /// Returns the records kept since the last call, and forgets them.
    func takeRecords() -> [AccessRecord] {
        records.withLock { records in
            defer { records.removeAll() }
            return records
        }
    }
}
