// System calls the C library does not wrap, or wraps only for C with _GNU_SOURCE, for
// GatehouseCore and GatehouseLoaders. Not part of Gatehouse's API.
#ifndef C_GATEHOUSE_LINUX_H
#define C_GATEHOUSE_LINUX_H

#include <stdint.h>

/// openat2(2) (Linux 5.6 and later) with a `struct open_how` of `flags`, mode 0 and `resolve`.
/// Returns the new descriptor, or -1 with errno set; errno is ENOSYS where the platform or the
/// headers the package was built with have no openat2.
long gatehouse_openat2(int directory, const char *path, uint64_t flags, uint64_t resolve);

/// The core the calling thread runs on (sched_getcpu(3), which reads it without a system call
/// where the kernel supports rseq), or -1 where the platform cannot say.
int gatehouse_current_cpu(void);

#endif
