#ifndef ALLOCATOR_STATISTICS_H
#define ALLOCATOR_STATISTICS_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not taken back (glibc's mallinfo2, or the
/// default zone's statistics on Apple platforms).
size_t allocator_bytes_in_use(void);

#endif
