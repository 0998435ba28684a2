import Foundation
import GatehouseCore

/// A ``DiskLoader``'s root, opened at the first load and kept open. A load holds the
/// ``DirectoryHandle`` it uses, so a reopen never closes a descriptor in use.
final class RootDirectory: Sendable {
    struct Opened {
        let handle: DirectoryHandle
        let resolution: PathResolution
    }

    private struct State {
        var handle: DirectoryHandle?
        var resolution: PathResolution
    }

    let displayPath: String
    /// NUL-terminated.
    private let path: [CChar]
    private let state: LockedState<State>

    init(_ url: URL, resolution: PathResolution) {
        displayPath = url.path
        path = url.withUnsafeFileSystemRepresentation { pointer in
            guard let pointer else { return [0] }
            return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer) + 1))
        }
        state = LockedState(State(handle: nil, resolution: resolution))
    }

    var resolution: PathResolution {
        state.withLock { $0.resolution }
    }

    /// From now on: `openat2` is not available.
    func useComponentWalk() {
        state.withLock { $0.resolution = .componentWalk }
    }

    /// Opens the root (following links in its path) if needed.
    func opened() throws(DiskLoaderError) -> Opened {
        let (current, resolution) = state.withLock { ($0.handle, $0.resolution) }
        if let current { return Opened(handle: current, resolution: resolution) }
        let descriptor = path.withUnsafeBufferPointer { path in
            retryingOnInterrupt { open(path.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        }
        guard descriptor >= 0 else {
            throw .rootUnavailable(root: displayPath, reason: errorMessage(errno))
        }
        let opened = DirectoryHandle(descriptor)
        return state.withLock { state in
            if let existing = state.handle { return Opened(handle: existing, resolution: state.resolution) }
            state.handle = opened
            return Opened(handle: opened, resolution: state.resolution)
        }
    }

    /// Runs `body` with the open root. When it finds nothing, a removed root is
    /// ``DiskLoaderError/rootUnavailable(root:reason:)`` and a replaced one gets one more try.
    func withRoot<Result>(_ body: (Opened) throws(DiskLoaderError) -> Result) throws(DiskLoaderError)
        -> Result
    {
        let root = try opened()
        do throws(DiskLoaderError) {
            return try body(root)
        } catch {
            switch error {
            case .notFound, .missingFolder: break
            default: throw error
            }
            guard try isReplaced(root.handle) else { throw error }
            return try body(opened())
        }
    }

    /// Whether the root path now names another directory than `handle`'s, which is then forgotten;
    /// throws when it names none. Only after a miss.
    private func isReplaced(_ handle: DirectoryHandle) throws(DiskLoaderError) -> Bool {
        var opened = stat()
        var named = stat()
        var missing: String?
        if path.withUnsafeBufferPointer({ stat($0.baseAddress!, &named) }) != 0 {
            missing = errorMessage(errno)
        } else if (named.st_mode & S_IFMT) != S_IFDIR {
            missing = errorMessage(ENOTDIR)
        } else if fstat(handle.descriptor, &opened) == 0 && opened.st_dev == named.st_dev
            && opened.st_ino == named.st_ino
        {
            return false
        }
        state.withLock { state in
            if state.handle === handle { state.handle = nil }
        }
        if let missing { throw .rootUnavailable(root: displayPath, reason: missing) }
        return true
    }
}

/// An open directory descriptor, closed when the last user releases it.
final class DirectoryHandle: Sendable {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        _ = close(descriptor)
    }
}

func retryingOnInterrupt(_ body: () -> Int32) -> Int32 {
    while true {
        let result = body()
        if result >= 0 || errno != EINTR { return result }
    }
}

func errorMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
