#if os(Linux) || os(Android)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Android)
        import Android
    #endif

    /// Descriptors opened with `O_PATH` (Linux): how ``DiskLoader`` opens every component of a
    /// key, so that it learns what a name is before anything is opened for reading.
    ///
    /// An `O_PATH` open does not open the file itself: a fifo gets no reader (a writer blocked
    /// in `open` on it stays blocked), a device's driver is not called, and with `O_NOFOLLOW` a
    /// symbolic link is opened as itself. `fstat` on the descriptor then says what it is, and it
    /// can be the directory of the next `openat`. Only a regular file within the size limit is
    /// then opened for reading, through `/proc/self/fd`: the very file `fstat` checked, even if
    /// its name was replaced in between, so there is no check-then-use gap.
    enum PathDescriptor {
        /// `O_PATH | O_NOFOLLOW | O_CLOEXEC`, the only flags `openat2` accepts with `O_PATH`.
        ///
        /// The C library's Swift overlay does not export `O_PATH` (a GNU extension). Its value,
        /// octal 10000000, is the same on every architecture Swift supports on Linux
        /// (`asm-generic/fcntl.h`; only alpha, parisc and sparc differ).
        static let flags: Int32 = 0o10000000 | O_NOFOLLOW | O_CLOEXEC

        /// Opens for reading the file that `descriptor`, an `O_PATH` descriptor of a regular file,
        /// refers to, by opening its magic link `/proc/self/fd/N`.
        static func openForReading(_ descriptor: Int32, key: String) throws(DiskLoaderError) -> Int32 {
            let (opened, code) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) {
                path -> (Int32, Int32) in
                var count = 0
                for byte in "/proc/self/fd/".utf8 {
                    path[count] = CChar(truncatingIfNeeded: byte)
                    count += 1
                }
                let digits = count
                var rest = descriptor
                repeat {
                    path[count] = CChar(truncatingIfNeeded: 0x30 + rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                path[digits..<count].reverse()
                path[count] = 0
                let opened = retryingOnInterrupt { open(path.baseAddress!, O_RDONLY | O_NOCTTY | O_CLOEXEC) }
                return (opened, opened >= 0 ? 0 : errno)
            }
            guard opened >= 0 else {
                throw .io(
                    key: key,
                    reason: code == ENOENT
                        ? "/proc/self/fd does not exist; on Linux the loader opens a file it checked "
                            + "through /proc, so /proc must be mounted"
                        : errorMessage(code))
            }
            return opened
        }
    }
#endif
