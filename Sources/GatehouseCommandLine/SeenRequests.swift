import GatehouseCore

/// The requests as the gatekeepers saw them, taken from the records of the command's own calls:
/// the resource's attributes merged in, the caller's value under a name the service takes from
/// its resources dropped, each name's origin known, masked values hidden. What the command
/// prints, rather than what the caller claimed.
final class SeenRequests: AccessObserver {
    /// The first request each service decided since the last ``take(of:)``.
    private let first = LockedState<[String: AccessRequest]>([:])

    /// Keeps the record's request if it is the first of its service; a shadow's is a copy.
    func observe(_ record: AccessRecord) {
        guard !record.isShadow, let service = record.service else { return }
        first.withLock { first in
            if first[service] == nil { first[service] = record.request }
        }
    }

    /// The first request `service` decided since the last call, if any; forgets every service's.
    func take(of service: String) -> AccessRequest? {
        first.withLock { first in
            defer { first.removeAll() }
            return first[service]
        }
    }
}
