#if canImport(Glibc)
    import CGatehouseLinux
    import Glibc

    /// How `openat2(2)` is called: the directory, the path, the open flags and the resolve flags
    /// of its `struct open_how`; the descriptor, or -1 with `errno`. The C library has no
    /// `openat2` wrapper and Swift cannot call the variadic `syscall(2)`, so the package's C
    /// target `CGatehouseLinux` makes the call (`gatehouse_openat2`); tests pass stand-ins.
    package typealias Openat2Call = @convention(c) (Int32, UnsafePointer<CChar>, UInt64, UInt64) -> Int

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

        /// The real `openat2(2)`.
        static let systemCall: Openat2Call = { gatehouse_openat2($0, $1, $2, $3) }

        /// Opens `path` (a NUL-terminated key, components separated by `/`) under `directory`
        /// with `call` and the open flags `flags`, following no symbolic link: with
        /// ``PathDescriptor/flags`` (the default) an `O_PATH` descriptor, which opens nothing for
        /// reading.
        static func open(
            _ path: UnsafePointer<CChar>, under directory: Int32, flags: Int32 = PathDescriptor.flags,
            key: String, call: Openat2Call
        ) -> Outcome {
            // RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH (linux/openat2.h).
            let resolve: UInt64 = 0x02 | 0x04 | 0x08
            var result: Int
            repeat {
                result = call(directory, path, UInt64(flags), resolve)
            } while result < 0 && errno == EINTR
            if result >= 0 { return .opened(Int32(truncatingIfNeeded: result)) }
            let code = errno
            if flags != PathDescriptor.flags && !Self.isAnswerOfThePath(code) {
                // The path resolved, but opening the file for reading failed: a device's driver
                // may refuse with any error, and EPERM may be a seccomp filter refusing openat2
                // itself. Open the path with O_PATH, which opens nothing for reading, to tell.
                return explain(code, path: path, under: directory, key: key, call: call)
            }
            switch code {
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

        /// Whether `code` says something about the path or the system call, not about opening
        /// the file the path names: ``open(_:under:flags:key:call:)`` maps it on its own.
        private static func isAnswerOfThePath(_ code: Int32) -> Bool {
            switch code {
            case ENOSYS, E2BIG, EAGAIN, ELOOP, EXDEV, ENOENT, ENOTDIR, ENXIO, EOPNOTSUPP: return true
            default: return false
            }
        }

        /// The outcome for opening `path` for reading, which failed with `code` (not an answer
        /// of the path): what an `O_PATH` open of the same path finds there decides. A file that
        /// is not regular is refused as such; a regular file is `io` with `code`.
        private static func explain(
            _ code: Int32, path: UnsafePointer<CChar>, under directory: Int32, key: String, call: Openat2Call
        ) -> Outcome {
            switch open(path, under: directory, key: key, call: call) {
            case .opened(let descriptor):
                defer { _ = close(descriptor) }
                var status = stat()
                if fstat(descriptor, &status) == 0,
                    let refusal = DiskLoader.fileTypeError(status.st_mode, key: key)
                {
                    return .failed(refusal)
                }
                return .failed(.io(key: key, reason: errorMessage(code)))
            case let outcome:
                return outcome
            }
        }
    }
#endif
