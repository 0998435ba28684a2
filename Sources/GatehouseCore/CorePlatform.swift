#if GATEHOUSE_DARWIN_SHIM
    // Type-checked on Linux against the Darwin declarations of Tests/DarwinShim (.ci/run), not built.
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The lock of ``LockedState``, the one system primitive of GatehouseCore that differs between
/// Darwin and Linux: an `os_unfair_lock` on Apple platforms, a `pthread_mutex_t` elsewhere. The
/// Darwin branch is type-checked on Linux against Apple's declarations (docs/platforms.md).
enum CorePlatform {}

#if canImport(Darwin) || GATEHOUSE_DARWIN_SHIM
    extension CorePlatform {
        /// The lock's storage.
        typealias Lock = os_unfair_lock

        /// Makes `lock` ready for use.
        static func initialize(_ lock: UnsafeMutablePointer<Lock>) {
            lock.initialize(to: os_unfair_lock())
        }

        /// Takes `lock`, waiting while another thread holds it.
        static func lock(_ lock: UnsafeMutablePointer<Lock>) {
            os_unfair_lock_lock(lock)
        }

        /// Releases `lock`.
        static func unlock(_ lock: UnsafeMutablePointer<Lock>) {
            os_unfair_lock_unlock(lock)
        }

        /// Ends `lock`'s use: an `os_unfair_lock` needs nothing.
        static func destroy(_ lock: UnsafeMutablePointer<Lock>) {}
    }
#else
    extension CorePlatform {
        /// The lock's storage.
        typealias Lock = pthread_mutex_t

        /// Makes `lock` ready for use.
        static func initialize(_ lock: UnsafeMutablePointer<Lock>) {
            lock.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(lock, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }

        /// Takes `lock`, waiting while another thread holds it.
        static func lock(_ lock: UnsafeMutablePointer<Lock>) {
            pthread_mutex_lock(lock)
        }

        /// Releases `lock`.
        static func unlock(_ lock: UnsafeMutablePointer<Lock>) {
            pthread_mutex_unlock(lock)
        }

        /// Ends `lock`'s use.
        static func destroy(_ lock: UnsafeMutablePointer<Lock>) {
            pthread_mutex_destroy(lock)
        }
    }
#endif
