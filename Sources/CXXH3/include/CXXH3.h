#ifndef CXXH3_H
#define CXXH3_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU and its operating system run AVX2 (x86-64 only; elsewhere 0).
int layoutsnap_xxh3_avx2_available(void);

/// XXH3-64 with seed 0 of `length` bytes at `data` (NULL with 0 is allowed), computed with AVX2:
/// the same value as libxxhash's XXH3_64bits, whose Debian build uses SSE2 only. Only when
/// `layoutsnap_xxh3_avx2_available()` said 1: an x86-64 CPU without AVX2 would fault on its first
/// instruction, and on other architectures it aborts.
uint64_t layoutsnap_xxh3_avx2(const void *data, size_t length);

#endif
