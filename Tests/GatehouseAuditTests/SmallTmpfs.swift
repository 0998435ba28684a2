import Foundation
import GatehouseTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A tmpfs of a few kilobytes mounted on a fresh folder (Linux, as root), for a test of a real
/// full disk; ``unmount()`` removes it.
struct SmallTmpfs {
    /// The folder the file system is mounted on.
    var url: URL { directory.url }
    private let directory: TemporaryDirectory

    /// Mounts a tmpfs of `kilobytes` on a fresh folder under the system's temporary folder.
    init(kilobytes: Int) throws {
        directory = try TemporaryDirectory()
        #if canImport(Glibc)
            guard mount("gatehouse-test", directory.url.path, "tmpfs", 0, "size=\(kilobytes)k") == 0 else {
                let code = errno
                directory.cleanUp()
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EPERM)
            }
        #else
            directory.cleanUp()
            throw POSIXError(.ENOTSUP)
        #endif
    }

    /// Unmounts the file system and removes the folder.
    func unmount() {
        #if canImport(Glibc)
            _ = umount2(url.path, Int32(MNT_DETACH))
        #endif
        directory.cleanUp()
    }

    /// The path of `name` on the file system.
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Whether this process may mount a tmpfs (root, and a system that lets it): tried once.
    static let canMount: Bool = {
        guard let disk = try? SmallTmpfs(kilobytes: 64) else { return false }
        disk.unmount()
        return true
    }()
}
