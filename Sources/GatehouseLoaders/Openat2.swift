#if canImport(Glibc)
    import CGatehouseLinux
    import Glibc

    /// How `openat2(2)` is called: the directory, the path, the open flags and the resolve flags
    /// of its `struct open_how`; the descriptor, or -1 with `errno`. The C library has no
    /// `openat2` wrapper and Swift cannot call the variadic `syscall(2)`, so the package's C
    /// target `CGatehouseLinux` makes the call (`gatehouse_openat2`); tests pass stand-ins.
    package typealias Openat2Call = @convention(c) (Int32, UnsafePointer<CChar>, UInt64, UInt64) -> Int

    /// `openat2(2)` (Linux 5.6+): a path under the root in one call, refusing any link on the way
    /// as the component walk does; `O_PATH` only.
    enum Openat2 {
        enum Outcome {
            case opened(Int32)
            /// The error the component walk would give.
            case failed(DiskLoaderError)
            /// The kernel (or a seccomp filter) does not offer `openat2`: walk the components,
            /// now and for every later load.
            case unsupported
            /// `openat2` asked to be retried (`EAGAIN`): walk the components for this load.
            case walkOnce
        }

        static let systemCall: Openat2Call = { gatehouse_openat2($0, $1, $2, $3) }

        /// A link as the last component is opened as itself; `fstat`, or `ENOTDIR` from a look
        /// inside it, tells.
        static func open(
            _ path: UnsafePointer<CChar>, under directory: Int32, key: String, call: Openat2Call
        ) -> Outcome {
            let flags = UInt64(LoadersPlatform.directoryFlags)
            // RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH (linux/openat2.h).
            let resolve: UInt64 = 0x02 | 0x04 | 0x08
            var result: Int
            repeat {
                result = call(directory, path, flags, resolve)
            } while result < 0 && errno == EINTR
            if result >= 0 { return .opened(Int32(truncatingIfNeeded: result)) }
            switch errno {
            case ENOSYS, EPERM, E2BIG:
                return .unsupported
            case EAGAIN:
                return .walkOnce
            case ELOOP, EXDEV:
                // ELOOP: a component is a symbolic link. EXDEV: the path would leave the root.
                return .failed(.outsideRoot(key: key))
            case ENOENT, ENOTDIR:
                // With RESOLVE_NO_SYMLINKS a link before the last component is ELOOP (the last
                // one, opened with O_PATH | O_NOFOLLOW, is opened as itself), so ENOTDIR is a
                // component before the last that is not a directory.
                return .failed(.notFound(key: key))
            case ENXIO, EOPNOTSUPP:
                return .failed(.notARegularFile(key: key))
            case let code:
                return .failed(.io(key: key, reason: errorMessage(code)))
            }
        }
    }

    extension RootDirectory {
        /// `path` under `root` as an `O_PATH` descriptor, or `nil` when the components must be
        /// walked (from now on, when the kernel does not offer `openat2`).
        func openat2(_ path: UnsafePointer<CChar>, under root: Opened, key: String) throws(DiskLoaderError)
            -> Int32?
        {
            guard case .openat2(let call) = root.resolution else { return nil }
            let outcome = withExtendedLifetime(root.handle) {
                Openat2.open(path, under: root.handle.descriptor, key: key, call: call)
            }
            switch outcome {
            case .opened(let descriptor):
                return descriptor
            case .failed(let error):
                throw error
            case .unsupported:
                useComponentWalk()
                return nil
            case .walkOnce:
                return nil
            }
        }
    }
#endif
