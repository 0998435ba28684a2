#if GATEHOUSE_DARWIN_SHIM
    // Type-checked on Linux against the Darwin declarations of Tests/DarwinShim (.ci/run), not built.
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system declarations of GatehousePolicies that differ between Darwin and Linux, in one
/// place: each Darwin branch is type-checked on Linux against Apple's declarations
/// (docs/platforms.md).
enum PoliciesPlatform {}

#if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
    extension PoliciesPlatform {
        /// The modification and status-change times of `status`, in seconds and nanoseconds
        /// (Darwin's `st_mtimespec` and `st_ctimespec`).
        static func times(of status: stat) -> (modified: timespec, changed: timespec) {
            (status.st_mtimespec, status.st_ctimespec)
        }
    }
#else
    extension PoliciesPlatform {
        /// The modification and status-change times of `status`, in seconds and nanoseconds
        /// (Linux's `st_mtim` and `st_ctim`).
        static func times(of status: stat) -> (modified: timespec, changed: timespec) {
            (status.st_mtim, status.st_ctim)
        }
    }
#endif
