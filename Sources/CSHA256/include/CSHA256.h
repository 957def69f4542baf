#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256's 64 round constants (FIPS 180-4, 4.2.2), for both compressions.
extern const uint32_t layoutsnap_sha256_k[64];

/// Whether this CPU has the SHA extensions (and the SSSE3 and SSE4.1 they come with):
/// x86-64 only; elsewhere 0.
int layoutsnap_sha256_hardware(void);

/// SHA-256's compression of `blocks` 64-byte blocks at `data` into `state` (a, b, ..., h),
/// with the SHA extensions. Only when `layoutsnap_sha256_hardware()` said 1: elsewhere it
/// aborts rather than leave the state unchanged.
void layoutsnap_sha256_blocks(uint32_t state[8], const void *data, size_t blocks);

#endif
