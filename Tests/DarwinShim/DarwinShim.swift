// swift-format-ignore-file: TypeNamesShouldBeCapitalized, AlwaysUseLowerCamelCase, IdentifiersMustBeASCII
// (the declarations keep the C names Apple's SDK gives them)
#if GATEHOUSE_DARWIN_SHIM
    // The Darwin declarations the platform files use (Sources/*/*Platform.swift), as Swift
    // imports them from Apple's SDK (macOS 13 and later), for type-checking those files' Darwin
    // branches on Linux: `.ci/typecheck-darwin-branches` compiles each platform file with this
    // one and -D GATEHOUSE_DARWIN_SHIM. Nothing here runs; a body only satisfies the compiler.
    // A misspelled field, a missing cast or a wrong argument type in a Darwin branch fails
    // here as it would on a Mac. Only the members used are declared, each with its source.

    // MARK: Types (<sys/_types.h>, <sys/types.h>, <sys/_types/_timespec.h>)

    /// `typedef __darwin_mode_t mode_t;` an `unsigned short` (<sys/_types/_mode_t.h>).
    typealias mode_t = UInt16
    /// `typedef __int32_t dev_t;` (<sys/_types/_dev_t.h>).
    typealias dev_t = Int32
    /// `typedef __uint16_t nlink_t;` (<sys/_types/_nlink_t.h>).
    typealias nlink_t = UInt16
    /// `typedef __uint32_t uid_t;`, `gid_t` likewise.
    typealias uid_t = UInt32
    /// `typedef __uint32_t gid_t;`
    typealias gid_t = UInt32
    /// `typedef __int64_t off_t;`, `blkcnt_t` likewise.
    typealias off_t = Int64
    /// `typedef __int64_t blkcnt_t;`
    typealias blkcnt_t = Int64
    /// `typedef __int32_t blksize_t;`
    typealias blksize_t = Int32
    /// `typedef long __darwin_time_t;`
    typealias __darwin_time_t = Int

    /// `struct timespec { __darwin_time_t tv_sec; long tv_nsec; };` (<sys/_types/_timespec.h>)
    struct timespec {
        var tv_sec: __darwin_time_t
        var tv_nsec: Int
        init() { (tv_sec, tv_nsec) = (0, 0) }
    }

    // MARK: stat (<sys/stat.h>; stat(2):
    // https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/stat.2.html)

    /// `struct stat` with 64-bit inodes (`__DARWIN_STRUCT_STAT64`): Darwin names the times
    /// `st_atimespec`, `st_mtimespec`, `st_ctimespec`, `st_birthtimespec` (Linux: `st_mtim`...).
    struct stat {
        var st_dev: dev_t = 0
        var st_mode: mode_t = 0
        var st_nlink: nlink_t = 0
        var st_ino: UInt64 = 0
        var st_uid: uid_t = 0
        var st_gid: gid_t = 0
        var st_rdev: dev_t = 0
        var st_atimespec = timespec()
        var st_mtimespec = timespec()
        var st_ctimespec = timespec()
        var st_birthtimespec = timespec()
        var st_size: off_t = 0
        var st_blocks: blkcnt_t = 0
        var st_blksize: blksize_t = 0
        var st_flags: UInt32 = 0
        var st_gen: UInt32 = 0
        var st_lspare: Int32 = 0
        var st_qspare: (Int64, Int64) = (0, 0)
        init() {}
    }

    /// `int fstat(int, struct stat *);`
    func fstat(_ fd: Int32, _ buf: UnsafeMutablePointer<stat>!) -> Int32 { fatalError() }
    /// `int fstatat(int, const char *, struct stat *, int);`
    func fstatat(
        _ fd: Int32, _ path: UnsafePointer<CChar>!, _ buf: UnsafeMutablePointer<stat>!, _ flag: Int32
    ) -> Int32 { fatalError() }
    /// The Darwin overlay's `public var S_IFMT: mode_t` (0o170000), `mode_t`, not `Int32`.
    var S_IFMT: mode_t { 0o170000 }
    /// The Darwin overlay's `public var S_IFLNK: mode_t` (0o120000).
    var S_IFLNK: mode_t { 0o120000 }
    /// `#define AT_SYMLINK_NOFOLLOW 0x0020` (<sys/fcntl.h>).
    var AT_SYMLINK_NOFOLLOW: Int32 { 0x0020 }

    // MARK: open flags (<sys/fcntl.h>; open(2):
    // https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/open.2.html)

    /// `#define O_RDONLY 0x0000`
    var O_RDONLY: Int32 { 0x0000 }
    /// `#define O_NONBLOCK 0x00000004`
    var O_NONBLOCK: Int32 { 0x0000_0004 }
    /// `#define O_NOFOLLOW 0x00000100`
    var O_NOFOLLOW: Int32 { 0x0000_0100 }
    /// `#define O_DIRECTORY 0x00100000`
    var O_DIRECTORY: Int32 { 0x0010_0000 }
    /// `#define O_CLOEXEC 0x01000000`
    var O_CLOEXEC: Int32 { 0x0100_0000 }

    /// The Darwin overlay's `public var errno: Int32 { get set }`.
    var errno: Int32 {
        get { fatalError() }
        set { fatalError() }
    }

    // MARK: getattrlist (<sys/attr.h>, <unistd.h>; getattrlist(2):
    // https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/getattrlist.2.html)

    /// `typedef u_int32_t attrgroup_t;`
    typealias attrgroup_t = UInt32

    /// `struct attrlist { u_short bitmapcount; u_int16_t reserved; attrgroup_t commonattr,
    /// volattr, dirattr, fileattr, forkattr; };`
    struct attrlist {
        var bitmapcount: UInt16 = 0
        var reserved: UInt16 = 0
        var commonattr: attrgroup_t = 0
        var volattr: attrgroup_t = 0
        var dirattr: attrgroup_t = 0
        var fileattr: attrgroup_t = 0
        var forkattr: attrgroup_t = 0
        init() {}
    }

    /// `#define ATTR_BIT_MAP_COUNT 5`
    var ATTR_BIT_MAP_COUNT: Int32 { 5 }
    /// `#define ATTR_CMN_NAME 0x00000001`
    var ATTR_CMN_NAME: Int32 { 0x0000_0001 }

    /// `typedef struct attrreference { int32_t attr_dataoffset; u_int32_t attr_length; } attrreference_t;`
    struct attrreference {
        var attr_dataoffset: Int32 = 0
        var attr_length: UInt32 = 0
        init() {}
    }
    /// `attrreference_t`
    typealias attrreference_t = attrreference

    /// `int fgetattrlist(int, void *, void *, size_t, unsigned int);`
    func fgetattrlist(
        _ fd: Int32, _ attrList: UnsafeMutableRawPointer!, _ attrBuf: UnsafeMutableRawPointer!,
        _ attrBufSize: Int, _ options: UInt32
    ) -> Int32 { fatalError() }

    // MARK: OSAllocatedUnfairLock (module os, macOS 13, iOS 16, tvOS 16, watchOS 9;
    // https://developer.apple.com/documentation/os/osallocatedunfairlock)

    /// `@frozen struct OSAllocatedUnfairLock<State>`, `Sendable`: a lock and the state it guards
    /// in one allocation; copies share it.
    struct OSAllocatedUnfairLock<State>: @unchecked Sendable {
        /// `init(uncheckedState initialState: State)`
        /// https://developer.apple.com/documentation/os/osallocatedunfairlock/init(uncheckedstate:)
        init(uncheckedState initialState: State) { fatalError() }
        /// `func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R`
        /// https://developer.apple.com/documentation/os/osallocatedunfairlock/withlockunchecked(_:)-7qywq
        func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R { fatalError() }
    }
#endif
