#if GATEHOUSE_DARWIN_SHIM
    // Type-checked on Linux against the Darwin declarations of Tests/DarwinShim (.ci/run), not built.
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system declarations that differ between Darwin and Linux (docs/platforms.md).
enum PoliciesPlatform {
    static func times(of status: stat) -> (modified: timespec, changed: timespec) {
        #if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
            return (status.st_mtimespec, status.st_ctimespec)
        #else
            return (status.st_mtim, status.st_ctim)
        #endif
    }
}
