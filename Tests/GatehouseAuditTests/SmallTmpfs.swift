import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tmpfs of a few kilobytes mounted on a fresh folder (Linux, as root), for a test of a real
/// full disk; ``unmount()`` removes it.
struct SmallTmpfs {
    /// The folder the file system is mounted on.
    let url: URL

    /// Mounts a tmpfs of `kilobytes` on a fresh folder under the system's temporary folder.
    init(kilobytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #if canImport(Glibc)
            guard mount("gatehouse-test", url.path, "tmpfs", 0, "size=\(kilobytes)k") == 0 else {
                let code = errno
                try? FileManager.default.removeItem(at: url)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EPERM)
            }
        #else
            try? FileManager.default.removeItem(at: url)
            throw POSIXError(.ENOTSUP)
        #endif
    }

    /// Unmounts the file system and removes the folder.
    func unmount() {
        #if canImport(Glibc)
            _ = umount2(url.path, Int32(MNT_DETACH))
        #endif
        try? FileManager.default.removeItem(at: url)
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
