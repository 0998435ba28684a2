#include "CGatehouseLinux.h"

#include <errno.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

long gatehouse_openat2(int directory, const char *path, uint64_t flags, uint64_t resolve) {
#if defined(__linux__) && defined(SYS_openat2)
    // The layout of the kernel's `struct open_how` (linux/openat2.h), declared here so that the
    // package does not need kernel headers that have it.
    struct {
        uint64_t flags;
        uint64_t mode;
        uint64_t resolve;
    } how = {flags, 0, resolve};
    return syscall(SYS_openat2, directory, path, &how, sizeof how);
#else
    (void)directory;
    (void)path;
    (void)flags;
    (void)resolve;
    errno = ENOSYS;
    return -1;
#endif
}
