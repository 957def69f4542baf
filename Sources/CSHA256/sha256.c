// SHA-256 blocks with the x86 SHA extensions (Intel's SHA-NI, AMD since Zen): about seven times
// the speed of the portable compression in SHA256.swift, which stays the reference and the
// fallback. Four rounds per step; W0..W3 hold the sixteen schedule words, sha256msg1 and msg2
// extend them (FIPS 180-4, 6.2.2).
#include "CSHA256.h"

#include <stdlib.h>

const uint32_t layoutsnap_sha256_k[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int layoutsnap_sha256_hardware(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1)) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_SHA) != 0;
}

__attribute__((target("sha,sse4.1,ssse3"))) void layoutsnap_sha256_blocks(
    uint32_t state[8], const void *input, size_t blocks) {
    const uint8_t *data = input;
    // The words big-endian; the state as the instructions want it: ABEF and CDGH.
    const __m128i order = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);
    __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B);
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);

    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abef = state0, cdgh = state1;
        __m128i w[4];
#pragma clang loop unroll(full)
        for (int g = 0; g < 16; g++) {
            __m128i *current = &w[g & 3], *previous = &w[(g + 3) & 3], *next = &w[(g + 1) & 3];
            if (g < 4) *current = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), order);
            __m128i message = _mm_add_epi32(*current, _mm_load_si128((const __m128i *)&layoutsnap_sha256_k[4 * g]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, message);
            if (g >= 3 && g <= 14) {
                *next = _mm_add_epi32(*next, _mm_alignr_epi8(*current, *previous, 4));
                *next = _mm_sha256msg2_epu32(*next, *current);
            }
            state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(message, 0x0E));
            if (g >= 1 && g <= 12) *previous = _mm_sha256msg1_epu32(*previous, *current);
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
    }

    tmp = _mm_shuffle_epi32(state0, 0x1B);
    state1 = _mm_shuffle_epi32(state1, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(tmp, state1, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(state1, tmp, 8));
}

#else

int layoutsnap_sha256_hardware(void) { return 0; }

void layoutsnap_sha256_blocks(uint32_t state[8], const void *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
    abort();  // never asked: layoutsnap_sha256_hardware() is 0 here
}

#endif
