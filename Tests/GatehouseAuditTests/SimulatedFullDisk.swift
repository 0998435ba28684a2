import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A disk with room for `limit` bytes in the log file, for a ``DecisionLog``'s write: a write
/// that does not fit writes what fits, and one that finds no room fails with `ENOSPC`, as
/// `write(2)` does on a full disk. ``free()`` makes room again.
final class SimulatedFullDisk: Sendable {
    private let limit: LockedLimit

    /// Creates a disk where the log file can grow to `limit` bytes.
    init(limit: Int) {
        self.limit = LockedLimit(limit)
    }

    /// Removes the limit, as when space is freed.
    func free() {
        limit.set(Int.max)
    }

    /// The write to give the log: the system's, cut to the room left.
    var write: @Sendable (Int32, UnsafeRawBufferPointer) -> Int {
        { [limit] descriptor, bytes in
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return -1 }
            let room = limit.value - Int(status.st_size)
            guard room > 0 else {
                errno = ENOSPC
                return -1
            }
            #if canImport(Glibc)
                return Glibc.write(descriptor, bytes.baseAddress!, min(bytes.count, room))
            #elseif canImport(Musl)
                return Musl.write(descriptor, bytes.baseAddress!, min(bytes.count, room))
            #else
                return Darwin.write(descriptor, bytes.baseAddress!, min(bytes.count, room))
            #endif
        }
    }
}

/// An `Int` behind a lock.
private final class LockedLimit: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int

    init(_ value: Int) { stored = value }

    var value: Int { lock.withLock { stored } }

    func set(_ value: Int) { lock.withLock { stored = value } }
}
