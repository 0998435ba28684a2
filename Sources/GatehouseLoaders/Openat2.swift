#if canImport(Glibc) && (arch(x86_64) || arch(arm64))
    import Glibc

    /// The signature `openat2(2)` is called with through the C library's `syscall(2)`: the system
    /// call number, the directory, the path, a `struct open_how` and its size.
    ///
    /// The C library has no `openat2` wrapper and Swift cannot call the variadic `syscall`, so
    /// `syscall` is called through this non-variadic pointer; on x86_64 and arm64 Linux a variadic
    /// callee reads integer arguments from the same registers.
    package typealias Openat2Call =
        @convention(c) (Int, Int32, UnsafePointer<CChar>, UnsafeRawPointer, Int) -> Int

    /// `openat2(2)` (Linux 5.6 and later): opens a whole key under the root in one system call,
    /// refusing any symbolic link on the way as the component walk does.
    enum Openat2 {
        /// What an `openat2` call came to.
        enum Outcome {
            /// The file is open.
            case opened(Int32)
            /// The key cannot be loaded, for the same reason the component walk would give.
            case failed(DiskLoaderError)
            /// The kernel (or a seccomp filter) does not offer `openat2`: walk the components,
            /// now and for every later load.
            case unsupported
            /// `openat2` asked to be retried (`EAGAIN`): walk the components for this load.
            case walkOnce
        }

        /// The C library's `syscall(2)`, or `nil` when it cannot be found (a static executable).
        static let systemCall: Openat2Call? = {
            // RTLD_DEFAULT is a null handle in the GNU C library.
            guard let symbol = dlsym(nil, "syscall") else { return nil }
            return unsafeBitCast(symbol, to: Openat2Call.self)
        }()

        /// Opens `path` (a NUL-terminated key, components separated by `/`) under `directory`
        /// with `call`, following no symbolic link.
        static func open(
            _ path: UnsafePointer<CChar>, under directory: Int32, key: String, call: Openat2Call
        ) -> Outcome {
            // `SYS_openat2`, the same on x86_64 and arm64.
            let number = 437
            // `struct open_how` (flags, mode, resolve) as a tuple, so that its layout is C's; the
            // resolve flags are RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH.
            let how: (UInt64, UInt64, UInt64) = (
                UInt64(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), 0, 0x02 | 0x04 | 0x08
            )
            var result: Int
            repeat {
                result = withUnsafePointer(to: how) { how in
                    call(number, directory, path, how, MemoryLayout<(UInt64, UInt64, UInt64)>.size)
                }
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
                // With RESOLVE_NO_SYMLINKS a link is ELOOP, so ENOTDIR is a component before
                // the last that is not a directory.
                return .failed(.notFound(key: key))
            case ENXIO, EOPNOTSUPP:
                return .failed(.notARegularFile(key: key))
            case let code:
                return .failed(.io(key: key, reason: errorMessage(code)))
            }
        }
    }
#endif
