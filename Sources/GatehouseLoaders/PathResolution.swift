/// How a ``DiskLoader`` opens a key under its root. Both ways follow no symbolic link in the
/// key and give the same errors; a loader uses ``preferred`` unless a test chooses.
package enum PathResolution: Sendable {
    #if canImport(Glibc)
        /// One `openat2(2)` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`
        /// for the directory of a key of several components (its path up to the last `/`,
        /// opened with `O_PATH`), made through `call`; the file in it is then looked at and
        /// opened as for a key of one component. When the kernel does not offer it (`ENOSYS`,
        /// `EPERM` from a seccomp filter, `E2BIG`), the loader switches to ``componentWalk`` for
        /// good.
        case openat2(call: Openat2Call)
    #endif
    /// One `openat(…, O_NOFOLLOW)` per component, each relative to the one before.
    case componentWalk

    /// `openat2` where the platform has it, else the component walk.
    package static var preferred: PathResolution {
        #if canImport(Glibc)
            return .openat2(call: Openat2.systemCall)
        #else
            return .componentWalk
        #endif
    }

    /// Whether loads use `openat2`.
    package var usesOpenat2: Bool {
        switch self {
        #if canImport(Glibc)
            case .openat2: return true
        #endif
        case .componentWalk: return false
        }
    }
}
