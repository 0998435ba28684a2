#if os(Linux) || os(Android)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Android)
        import Android
    #endif

    /// Descriptors opened with `O_PATH` (Linux): how ``DiskLoader`` opens the directories on the
    /// way to a key's file (one at a time in the component walk, or all in one `openat2`), and how
    /// ``DiskFolder`` opens a folder with `openat2`. The file itself is never opened this way:
    /// ``DiskLoader`` looks at it with `fstatat` and opens only a regular file, for reading.
    ///
    /// An `O_PATH` open does not open the file itself: a fifo gets no reader, a device's driver
    /// is not called, and with `O_NOFOLLOW` a symbolic link is opened as itself. The descriptor
    /// can be the directory of the next `openat`, and `fstat` on it says what it is.
    enum PathDescriptor {
        /// `O_PATH | O_NOFOLLOW | O_CLOEXEC`, the only flags `openat2` accepts with `O_PATH`.
        ///
        /// The C library's Swift overlay does not export `O_PATH` (a GNU extension). Its value,
        /// octal 10000000, is the same on every architecture Swift supports on Linux
        /// (`asm-generic/fcntl.h`; only alpha, parisc and sparc differ).
        static let flags: Int32 = 0o10000000 | O_NOFOLLOW | O_CLOEXEC
    }
#endif
