// A system call the C library does not wrap, for GatehouseLoaders. Not part of Gatehouse's API.
#ifndef C_GATEHOUSE_LINUX_H
#define C_GATEHOUSE_LINUX_H

#include <stdint.h>

/// openat2(2) (Linux 5.6 and later) with a `struct open_how` of `flags`, mode 0 and `resolve`.
/// Returns the new descriptor, or -1 with errno set; errno is ENOSYS where the platform or the
/// headers the package was built with have no openat2.
long gatehouse_openat2(int directory, const char *path, uint64_t flags, uint64_t resolve);

#endif
