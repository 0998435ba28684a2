#if canImport(Glibc)
    import CGatehouseLinux
    import Glibc

    /// How `openat2(2)` is called: the directory, the path, the open flags and the resolve flags
    /// of its `struct open_how`; the descriptor, or -1 with `errno`. The C library has no
    /// `openat2` wrapper and Swift cannot call the variadic `syscall(2)`, so the package's C
    /// target `CGatehouseLinux` makes the call (`gatehouse_openat2`); tests pass stand-ins.
    package typealias Openat2Call = @convention(c) (Int32, UnsafePointer<CChar>, UInt64, UInt64) -> Int

    enum Openat2 {
        static let systemCall: Openat2Call = { gatehouse_openat2($0, $1, $2, $3) }
    }

    extension RootDirectory {
        /// `openat2(2)` (Linux 5.6+): `path` under `root` in one call as an `O_PATH` descriptor,
        /// refusing any link on the way with the errors the component walk gives. `nil` when the
        /// components must be walked: for this call on `EAGAIN`, for good when the kernel (or a
        /// seccomp filter) does not offer `openat2`. A link as the last component is opened as
        /// itself; `fstat`, or `ENOTDIR` from a look inside it, tells.
        func openat2(_ path: UnsafePointer<CChar>, under root: Opened, key: String) throws(DiskLoaderError)
            -> Int32?
        {
            guard case .openat2(let call) = root.resolution else { return nil }
            let flags = UInt64(LoadersPlatform.directoryFlags)
            // RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH (linux/openat2.h).
            let resolve: UInt64 = 0x02 | 0x04 | 0x08
            var result: Int
            repeat {
                result = withExtendedLifetime(root.handle) {
                    call(root.handle.descriptor, path, flags, resolve)
                }
            } while result < 0 && errno == EINTR
            if result >= 0 { return Int32(truncatingIfNeeded: result) }
            switch errno {
            case ENOSYS, EPERM, E2BIG:
                useComponentWalk()
                return nil
            case EAGAIN:
                return nil
            case ELOOP, EXDEV:
                // ELOOP: a component is a symbolic link. EXDEV: the path would leave the root.
                throw .outsideRoot(key: key)
            case ENOENT, ENOTDIR:
                // With RESOLVE_NO_SYMLINKS a link before the last component is ELOOP (the last
                // one, opened with O_PATH | O_NOFOLLOW, is opened as itself), so ENOTDIR is a
                // component before the last that is not a directory.
                throw .notFound(key: key)
            case ENXIO, EOPNOTSUPP:
                throw .notARegularFile(key: key)
            case let code:
                throw .io(key: key, reason: errorMessage(code))
            }
        }
    }
#endif
