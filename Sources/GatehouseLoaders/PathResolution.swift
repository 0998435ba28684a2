/// How a ``DiskLoader`` opens a key under its root. Both ways follow no symbolic link in the
/// key and give the same errors; a loader uses ``preferred`` unless a test chooses.
package enum PathResolution: Sendable {
    #if canImport(Glibc)
        /// One `openat2(2)` for a key's directory; the loader switches to ``componentWalk`` for
        /// good when the kernel does not offer it.
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

    package var usesOpenat2: Bool {
        switch self {
        #if canImport(Glibc)
            case .openat2: return true
        #endif
        case .componentWalk: return false
        }
    }
}
