// XXH3-64 through AVX2. Debian's libxxhash is built for the x86-64 baseline, so its XXH3 runs on
// SSE2: about 20 GB/s here against 57 GB/s with AVX2, for the same values (XXH3's result does not
// depend on the vector width it is computed with). Every frame a run draws is hashed, 6% of a
// cold run's CPU. xxhash.h's own code, inlined into this file alone with AVX2 allowed; the
// library stays the fallback and the reference (HashTests compares the two).
#include "CXXH3.h"

#include <stdlib.h>

#if defined(__x86_64__)
#ifndef __clang__
#error "the AVX2 region below is marked with clang's attribute pragma"
#endif
#include <cpuid.h>
#include <immintrin.h>
#include <limits.h>
#include <string.h>

int layoutsnap_xxh3_avx2_available(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    // The operating system saves the YMM registers (XCR0's SSE and AVX state bits).
    unsigned lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_AVX2) != 0;
}

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define XXH_INLINE_ALL
#define XXH_VECTOR 2 /* XXH_AVX2 */
#include <xxhash.h>
#pragma clang attribute pop

uint64_t layoutsnap_xxh3_avx2(const void *data, size_t length) { return XXH3_64bits(data, length); }

#else

int layoutsnap_xxh3_avx2_available(void) { return 0; }

uint64_t layoutsnap_xxh3_avx2(const void *data, size_t length) {
    (void)data;
    (void)length;
    abort();
}

#endif
